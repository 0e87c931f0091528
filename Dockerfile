# Switchboard's production image: `node bin/switchboard.js` under tini, as a non-root user, with
# production dependencies only (no Prisma CLI: `switchboard migrate` applies the migrations).
#
#   docker build -t switchboard .
#
# Behind a TLS-inspecting proxy, put its CA bundle (PEM) at ./extra-ca.pem before building: npm
# trusts it in the build stages only; it never reaches the final image. Without it, the build stops
# with a message naming extra-ca.pem (docker/npm.sh).

ARG NODE_IMAGE=node:22-bookworm-slim

# Build: every dependency, the Prisma client generated, TypeScript compiled.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The wildcard lets the build go on without the optional CA file.
COPY docker/npm.sh /usr/local/bin/npm-with-ca
COPY package.json package-lock.json extra-ca.pem* ./
RUN sh /usr/local/bin/npm-with-ca ci --ignore-scripts
COPY nest-cli.json tsconfig.json prisma.config.ts ./
COPY prisma ./prisma
COPY src ./src
RUN npx prisma generate && npx nest build

# Production dependencies: without the dev ones, without the Prisma CLI and TypeScript (optional
# peers of @prisma/client that npm would keep), without the query engines of other databases,
# type declarations, source maps and docs.
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY docker/npm.sh /usr/local/bin/npm-with-ca
COPY package.json package-lock.json extra-ca.pem* ./
RUN sh /usr/local/bin/npm-with-ca ci --omit=dev --ignore-scripts \
 && npm pkg delete devDependencies \
 && sh /usr/local/bin/npm-with-ca prune --omit=dev --omit=peer --ignore-scripts \
 && find node_modules/@prisma/client/runtime -type f \
      ! -name client.js ! -name index-browser.js \
      ! -name query_compiler_bg.postgresql.js ! -name query_compiler_bg.postgresql.wasm-base64.js -delete \
 && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.md' \) -delete

FROM ${NODE_IMAGE}
# tini is PID 1: it forwards SIGTERM to Node (which drains and exits) and reaps children (stdio MCP servers).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && groupadd --system --gid 10001 switchboard \
 && useradd --system --uid 10001 --gid switchboard --home-dir /app --shell /usr/sbin/nologin switchboard
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY prisma/migrations ./prisma/migrations
USER 10001:10001
EXPOSE 8080
# A worker serves /healthz only when SWITCHBOARD_WORKER_HEALTH_PORT is set; compose and the chart set it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.SWITCHBOARD_WORKER_HEALTH_PORT || process.env.PORT || 8080}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "bin/switchboard.js"]
CMD ["serve"]

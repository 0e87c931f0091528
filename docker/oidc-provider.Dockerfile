# The development OpenID provider of docker-compose.yml's `examples` profile (docker/oidc-provider.mjs):
# oidc-provider, pinned to the version the project's own OAuth tests run, on port 9090.
ARG NODE_IMAGE=node:22-bookworm-slim
FROM ${NODE_IMAGE}
WORKDIR /opt/oidc-provider
COPY docker/npm.sh extra-ca.pem* ./
RUN sh npm.sh install --omit=dev oidc-provider@9.13.3 && rm -rf /root/.npm npm.sh extra-ca.pem
COPY docker/oidc-provider.mjs ./
USER node
ENV PORT=9090
EXPOSE 9090
CMD ["node", "oidc-provider.mjs"]

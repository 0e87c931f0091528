# The example MCP server of docker-compose.yml's `examples` profile: the MCP project's reference
# server (every tool kind), over Streamable HTTP on port 3001.
ARG NODE_IMAGE=node:22-bookworm-slim
FROM ${NODE_IMAGE}
WORKDIR /tmp/build
COPY docker/npm.sh extra-ca.pem* ./
RUN sh npm.sh install --global @modelcontextprotocol/server-everything@2026.8.31 && rm -rf /root/.npm /tmp/build
WORKDIR /
USER node
ENV PORT=3001
EXPOSE 3001
CMD ["mcp-server-everything", "streamableHttp"]

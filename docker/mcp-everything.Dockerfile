# The example MCP server of docker-compose.yml's `examples` profile: the MCP project's reference
# server (every tool kind), over Streamable HTTP on port 3001.
ARG NODE_IMAGE=node:22-bookworm-slim
FROM ${NODE_IMAGE}
COPY extra-ca.pem* /tmp/
RUN if [ -f /tmp/extra-ca.pem ]; then export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi; \
    npm install --global --no-audit --no-fund @modelcontextprotocol/server-everything@2026.8.31 && rm -rf /root/.npm /tmp/extra-ca.pem
USER node
ENV PORT=3001
EXPOSE 3001
CMD ["mcp-server-everything", "streamableHttp"]

# mcp-ld: the HTTP service (mcp-ld serve). Build: docker build -t mcp-ld .
# Run: docker run -p 8080:8080 -v mcp-ld-data:/data mcp-ld   (embedded store, durable in the volume)
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
# Dependencies first (cached while the sources change); the build runs after the sources are in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY bin ./bin
COPY src ./src
COPY schemas ./schemas
COPY contexts ./contexts
COPY ontology ./ontology
COPY queries ./queries
COPY console ./console
# The build compiles the service and bundles the web console (dist/console), before the build tools are pruned.
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
ENV NODE_ENV=production \
    MCPLD_HOST=0.0.0.0 \
    MCPLD_PORT=8080 \
    MCPLD_DATA=/data
# The data volume and the schema cache (parsed schemas, compiled validators) belong to the user that runs it.
RUN mkdir -p /data /app/dist/.schema-cache && chown -R node:node /data /app/dist/.schema-cache
VOLUME ["/data"]
EXPOSE 8080
USER node
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:8080/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "bin/mcp-ld", "serve"]

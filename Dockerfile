# Academy's production image: the React Router build, the server's TypeScript sources (Node 24 runs them
# as they are) and the production dependencies, on Node 24, as the unprivileged user `node`.
# docs/operations.md says how to run it; compose.yaml runs two of it behind nginx on PostgreSQL.

# The build: every dependency, then `npm run build` (React Router into build/, assets pre-compressed).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# The production dependencies alone. The image's own Node is 24, so leaving out the `node`
# devDependency (Node 24 for laptops on an older Node) costs nothing here. sharp's native binary for
# linux-x64 glibc is one of its optional dependencies, which npm installs for this platform.
FROM node:24-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY deploy/prune-dev-peers.ts deploy/
RUN npm ci --omit=dev --no-audit --no-fund && node deploy/prune-dev-peers.ts

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=65536
WORKDIR /app
COPY --from=production-dependencies /app/node_modules node_modules
COPY package.json ./
COPY server server
# Code the server shares with the pages: formats, limits, the password policy, view types.
COPY common common
COPY content content
COPY --from=build /app/build build
# DATA_DIR: uploads when no S3 bucket is set. Everything else is owned by root, so the server cannot change its own code.
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
# Ready means the database answers and is migrated; it turns false on SIGTERM while the process drains.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The flags `npm start` runs the server with (package.json), without its build step: the image is built.
CMD ["node", "--max-semi-space-size=16", "--expose-gc", "--no-memory-reducer", "server/main.ts"]

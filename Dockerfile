# snippets in a container: build with the dev dependencies, run on a slim Node with production ones only.
# docker build -t snippets . && docker run -p 8000:8000 -v snippets-data:/app/data snippets

FROM node:22-bookworm-slim AS build
# sqlite3's native addon is compiled when no prebuilt binary is fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# No sources yet: the prepare step skips the build here, so this layer is cached until the lockfile changes.
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY server ./server
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The SQLite database and the generated SECRET_KEY live under /app/data unless DATABASE_URL and SECRET_KEY say otherwise.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# As npm start gives node 22 its flag (server/start-flags.ts, docs/operations.md).
CMD ["node", "--experimental-async-context-frame", "dist/server/main.js"]

# Arbiter server image: `arbiter serve` on 0.0.0.0:7411 with its data directory at /data.
# Not built on the machine this was written on (no Docker there); see docs/deployment.md.
#
#   docker build -t arbiter .
#   docker run -p 7411:7411 -v arbiter-data:/data arbiter
#   docker run … -e ARBITER_DATABASE_URL=postgres://arbiter:…@db/arbiter arbiter   (several nodes)

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 and the other native modules build here when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY packages ./packages
COPY scripts ./scripts
# `npm ci` runs the root `prepare` script (the TypeScript build); the word-vector table ships in the
# repository, and the local-model runtimes are not installed (docs/engines.md#local-model-runtimes).
RUN npm ci && npm prune --omit=dev

FROM node:20-bookworm-slim
# bubblewrap, prlimit and setpriv: the process sandbox every task program starts in (docs/security.md).
# It needs user namespaces in the container; see docs/deployment.md for the runtime flags.
RUN apt-get update \
  && apt-get install -y --no-install-recommends bubblewrap util-linux ca-certificates tini \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --create-home --uid 10001 arbiter \
  && mkdir -p /data && chown arbiter /data
WORKDIR /app
COPY --from=build --chown=arbiter /app /app
USER arbiter
ENV ARBITER_DATA_DIR=/data NODE_ENV=production
EXPOSE 7411
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:7411/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/packages/cli/bin/arbiter.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "7411", "--log-format", "json"]

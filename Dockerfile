# Outpost in one container (ARCHITECTURE.md §4 'Running it'; README 'Run it in a container').
#   docker build -t outpost .            docker compose up
# Behind a TLS-inspecting proxy, mount the proxy's CA bundle into the build and name it:
#   docker build --build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
#     -v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro -t outpost .   (buildah/podman)
# BASE is any Debian-based image with Node 20 and npm 10 and a user `node` (uid 1000), as
# node:20-bookworm-slim has; `npm run test:container` builds with a local one (scripts/testContainer.ts).
ARG BASE=node:20-bookworm-slim

FROM ${BASE} AS build
# Build args are in RUN's environment: npm (Node) reads this file of extra trusted CAs, if named.
ARG NODE_EXTRA_CA_CERTS
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    npm_config_fund=false \
    npm_config_audit=false \
    npm_config_update_notifier=false
WORKDIR /app
# The lock alone first: the dependency layer is reused while package*.json stay the same.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The client is built here, once, and the server compiled into one module (its packages stay in
# node_modules): it starts in a few seconds with no TypeScript to transform. Then everything only the
# build needed leaves node_modules, with the source maps and type declarations nothing reads at run time.
RUN npm run build \
 && node_modules/.bin/esbuild src/server/index.ts --bundle --platform=node --format=esm --target=node20 \
      --packages=external --outfile=dist/server/index.mjs --log-level=warning \
 && npm prune --omit=dev --no-audit --no-fund \
 && find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -type f -delete \
 && npm cache clean --force
# What the server runs, gathered in /out for one COPY (each COPY is a layer): the compiled server, the
# migrations (found above it) and the built client; and the backup/restore scripts with the sources
# they import (run through tsx, a production dependency).
RUN mkdir -p /out/app/dist /out/app/src /out/app/scripts/lib \
 && cp -a package.json package-lock.json tsconfig.json node_modules drizzle /out/app/ \
 && cp -a dist/client dist/server /out/app/dist/ \
 && cp -a src/server src/shared /out/app/src/ \
 && cp -a scripts/backup.ts scripts/restore.ts /out/app/scripts/ \
 && cp -a scripts/lib/progressPrinter.ts /out/app/scripts/lib/ \
 && find /out/app/src /out/app/scripts -name '*.test.ts' -type f -delete

FROM ${BASE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    CLIENT_DIR=/app/dist/client \
    npm_config_update_notifier=false
COPY --from=build /out/app /app
# The data folder is the unprivileged user's the server runs as (node, uid 1000), and its alone; a
# named volume mounted there starts so.
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
WORKDIR /app
USER node
VOLUME ["/data"]
EXPOSE 3000
# The base has no curl: Node's own fetch asks readiness (database answers, migrations applied).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 and handles SIGTERM itself: a graceful stop within 10 s (src/server/health/shutdown.ts).
# An idle container in under 200 MB (issue 68; measured 430 MB without these, README 'Run it in a
# container'): the embedded engine's shared buffers at 16 MB (raise EMBEDDED_SHARED_BUFFERS for a large
# database), the embedded engine's WebAssembly kept by its baseline compiler alone (the optimising
# tier's code and compiler memory were ~50 MB; a CPU-bound query mix ran 3% slower), a young generation
# of 4 MB semi-spaces, --expose-gc so the first start's migrating engine is collected as soon as it
# closes, and glibc handing large freed blocks back to the system instead of keeping them.
ENV MALLOC_MMAP_THRESHOLD_=65536 \
    MALLOC_ARENA_MAX=2 \
    EMBEDDED_SHARED_BUFFERS=16MB
CMD ["node", "--liftoff-only", "--max-semi-space-size=4", "--expose-gc", "dist/server/index.mjs"]

# syntax=docker/dockerfile:1
#
# Hearth gateway image. The TypeScript sources run as they are (Node 24 strips the types), so
# there is no compile stage: the image is the official Node image, the production
# node_modules and the sources.
#
#   docker build -t hearth:local .                  # the runtime image (last stage), lean
#   docker build --build-arg FEATURES=voice,embeddings -t hearth:full .
#                                                   # with the optional features
#   docker build --target check .                   # only npm ci + npm run typecheck
#
# The default image has what the embedded default needs: production dependencies only, for
# this platform only (scripts/slim-node-modules.sh), no build tools, no ONNX Runtime. The
# optional features (scripts/features.js; `hearth features` lists them) are a build argument:
#   FEATURES=embeddings   local sentence embeddings for semantic memory (ONNX Runtime, the
#                         model fetched at build time unless FETCH_EMBEDDING_MODEL=0)
#   FEATURES=voice        Whisper STT, Silero VAD, wake word, Piper (ONNX Runtime), espeak-ng
# Without them /api/v1/status says `features: {voice: "off (hearth features add voice; …)"}`,
# semantic memory runs on keyword search only, and voice reports its engines unavailable.
#
# Without compose (docker-compose.yml does the first step by itself): the gateway listens on
# 0.0.0.0 in the container, which needs [gateway] api_key, so seed the volume with a config
# that sets it before the first start, then run:
#   docker run --rm -i -v hearth-data:/data --entrypoint sh hearth:local \
#     -c 'cat > /data/config.toml' < infra/compose/config.toml
#   docker run -d --init -p 127.0.0.1:7432:7432 -e HEARTH_API_KEY=... -v hearth-data:/data hearth:local
#
# Node here comes from the base image; the `node` npm package is a devDependency of the repo
# (for machines whose own Node is too old) and is never installed in the runtime image.

ARG NODE_IMAGE=node:24-bookworm-slim
# The runtime stage's base: Node, and npm only when the image has it (nothing in the runtime
# image runs npm). scripts/build-images.sh passes its npm-less hearth/node:<version>-bookworm-runtime.
ARG NODE_RUNTIME_IMAGE=node:24-bookworm-slim
ARG FEATURES=""

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app
# ONNXRUNTIME_NODE_INSTALL=skip: onnxruntime-node's install script would fetch CUDA binaries;
# npm ≥ 11.19 already skips it (allowScripts in package.json), this covers an older npm.
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    ONNXRUNTIME_NODE_INSTALL=skip

# ---------------------------------------------------------------------------------------------
# Production dependencies. Only the manifests are copied first, so this layer is rebuilt only
# when a package.json or the lockfile changes. Every workspace's package.json must be present
# for `npm ci` to accept the lockfile; infra/npm holds the stand-in the root's `overrides` put
# in place of onnxruntime-web (ONNX Runtime for browsers).
FROM base AS deps
ARG FEATURES
COPY package.json package-lock.json .npmrc ./
COPY gateway/package.json gateway/
COPY cli-ink/package.json cli-ink/
COPY e2e/package.json e2e/
COPY client/package.json client/
COPY sidecars/sandbox-executor/package.json sidecars/sandbox-executor/
COPY web/package.json web/
COPY infra/npm/ infra/npm/
COPY scripts/features.js scripts/slim-node-modules.sh scripts/
# --ignore-scripts: no production dependency needs an install script (better-sqlite3 ships its
# prebuilt binaries inside the package; the only scripts are telemetry/banners), and skipping
# them keeps the build offline-safe apart from the registry itself. Only the dependencies of
# the two workspaces the image runs (-w): the web client's are bundled into web/dist by the
# build stage, the sidecar has its own image, and e2e/client are for tests (~11 MB less). The
# gateway finds web/dist through the @hearth/web link (web-client/assets-dir.ts), which npm
# makes only for the workspaces it installs, hence the ln. Then the features asked for: that
# install is not limited to the two workspaces, because npm then ignores the root's overrides
# and installs onnxruntime-web (~116 MB) in place of its stand-in. Then everything nothing
# loads at run time goes (source maps, types, other platforms, TypeScript).
RUN npm ci --omit=dev --ignore-scripts -w gateway -w cli-ink \
    && if [ -n "$FEATURES" ]; then \
      node scripts/features.js add "$FEATURES" -- --omit=dev --ignore-scripts; \
    fi \
    && { [ -e node_modules/@hearth/web ] || ln -s ../../web node_modules/@hearth/web; } \
    && scripts/slim-node-modules.sh node_modules \
    && rm -rf /root/.npm

# ---------------------------------------------------------------------------------------------
# Full install (dev dependencies too), then a type-check of the whole repo: the build stage
# below compiles from here, so a type error fails the image build.
# --ignore-scripts as above: type-checking and compiling need no install script (the base
# image's Node 24 runs them; the `node` devDependency exists for machines with an older Node),
# and better-sqlite3's implicit node-gyp step would need Python and a compiler just to find
# that its prebuilt binary fits. The build stage below builds (the root's prepare step would
# have no sources yet).
FROM base AS check
COPY package.json package-lock.json .npmrc ./
COPY gateway/package.json gateway/
COPY cli-ink/package.json cli-ink/
COPY e2e/package.json e2e/
COPY client/package.json client/
COPY sidecars/sandbox-executor/package.json sidecars/sandbox-executor/
COPY web/package.json web/
COPY infra/npm/ infra/npm/
COPY scripts/prepare.js scripts/
RUN npm ci --ignore-scripts
COPY . .
RUN npm run typecheck

# Compiled JavaScript: starts faster and uses less memory than running the .ts sources.
FROM check AS build
RUN npm run build

# The sentence-embedding model for semantic memory, fetched when FEATURES has embeddings and
# the build has network; `--build-arg FETCH_EMBEDDING_MODEL=0` skips it. Without it the gateway
# runs with keyword search only, and /api/v1/status says semantic memory is off and how to
# pull the model (`docker compose exec gateway node cli-ink/bin/hearth.js memory models pull`).
FROM build AS models
ARG FEATURES
ARG FETCH_EMBEDDING_MODEL=1
RUN mkdir -p /models-home/models \
    && case ",$FEATURES," in *,embeddings,*) \
      if [ "$FETCH_EMBEDDING_MODEL" = 1 ]; then \
        { node scripts/features.js add embeddings -- --ignore-scripts \
          && HEARTH_HOME=/models-home timeout 900 node cli-ink/bin/hearth.js memory models pull; } \
        || echo "the embedding model was not fetched: semantic memory stays off until it is pulled"; \
      fi ;; \
    esac

# ---------------------------------------------------------------------------------------------
# Runtime. Last stage, so a plain `docker build .` produces it.
FROM ${NODE_RUNTIME_IMAGE} AS runtime
ARG FEATURES
WORKDIR /app
ENV NODE_ENV=production \
    HEARTH_HOME=/data

# jemalloc: the gateway preloads it at start (gateway/src/config/runtime-tuning.ts). After a
# burst of chat turns glibc malloc keeps ~100 MB of freed memory; jemalloc returns it, so the
# settled RSS is ~125 MB instead of ~200 MB (npm run bench:chat).
# espeak-ng (with FEATURES=voice only, ~110 MB with its audio libraries): the voice pipeline's
# speech synthesis when no Piper voice is in the model cache, and Piper's phonemes.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libjemalloc2 \
      $(case ",$FEATURES," in *,voice,*) echo espeak-ng ;; esac) \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log

# The state directory belongs to the unprivileged `node` user (uid 1000 in the official
# image) with mode 0700, as the gateway wants it. A new named volume mounted on /data copies
# this ownership and mode, so the container never needs root to fix permissions.
RUN install -d -o node -g node -m 0700 /data
# Where the compose stack's skill-host sidecar puts its Unix socket (a volume both mount): the
# gateway's own, whichever container creates the volume first.
RUN install -d -o node -g node -m 0700 /run/hearth-skills
# A new volume on /data starts with the model baked in here (an empty folder when none was fetched).
COPY --from=models --chown=node:node /models-home/models /data/models

# node_modules (including npm's workspace links under node_modules/@hearth) and the
# manifests come from the deps stage; the application files stay owned by root, read-only
# for the `node` user that runs them.
COPY --from=deps /app/ ./
COPY gateway/ gateway/
COPY cli-ink/ cli-ink/
# dist/gateway/node_modules and dist/cli-ink/node_modules are relative links to the
# workspaces' own node_modules (from the deps stage, same layout as the build stage's), so the
# compiled files load the versions the build checked, not the root's hoisted ones.
COPY --from=build /app/dist/ dist/
# The web client the gateway serves at `/` (built by Vite in the build stage).
COPY --from=build /app/web/dist/ web/dist/

USER node
VOLUME ["/data"]
EXPOSE 7432

# Liveness: /health answers 200 as soon as the process is up (it is exempt from X-API-Key).
# Assumes the default port 7432; change it here too if [gateway] port is changed.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:7432/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Binding 0.0.0.0 is refused unless config.toml sets [gateway] api_key (or
# allow_unauthenticated = true): see infra/compose/config.toml. Run with `--init`
# (compose: `init: true`) so a tini reaps the processes that tools spawn; the gateway itself
# handles SIGTERM (drain, close stores, exit 0). Extra flags (e.g. --port) go after the image.
ENTRYPOINT ["node", "dist/gateway/src/main.js", "--bind", "0.0.0.0"]
CMD []

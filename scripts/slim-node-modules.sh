#!/bin/sh
# Deletes from a production node_modules what nothing loads at run time, for the gateway
# image (Dockerfile, deps stage): source maps, type declarations, TypeScript sources (Node
# does not strip types under node_modules, so none of them can run), Markdown, and native
# binaries and C sources for other systems (better-sqlite3 ships eight platforms' binaries
# and the SQLite sources; onnxruntime-node's other platforms go when a feature is added,
# scripts/features.js), and TypeScript itself. Licence files stay. Usage: scripts/slim-node-modules.sh [node_modules]
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
# TypeScript (~20 MB) is in a production install only as @qdrant/js-client-rest's peer
# dependency (for its type declarations); nothing loads it at run time. It stays if a package's
# JavaScript ever imports it.
if [ -d "$dir/typescript" ] && ! grep -rqE --include='*.js' --include='*.cjs' --include='*.mjs' \
  --exclude-dir=typescript "(require\(|from |import\()[\"']typescript[\"']" "$dir"; then
  rm -rf "$dir/typescript" "$dir/.bin/tsc" "$dir/.bin/tsserver"
fi
after=$(du -sk "$dir" | cut -f1)
echo "slim-node-modules: $((before / 1024)) MB -> $((after / 1024)) MB"

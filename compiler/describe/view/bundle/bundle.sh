#!/usr/bin/env bash
# Makes compiler/describe/view/three.js from the pinned three.js (the npm
# registry's three@0.187.0, MIT, its licence in ../three-LICENSE) with the
# pinned esbuild: only what entry.js names, minified, as one script.
#
#   bash compiler/describe/view/bundle/bundle.sh           # write it
#   bash compiler/describe/view/bundle/bundle.sh --check   # exit 1 if it differs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${KILN_BUNDLE_WORK:-$here/../../../../target/view-bundle}"
mkdir -p "$work"
cp "$here/package.json" "$here/package-lock.json" "$here/entry.js" "$work/"
(cd "$work" && npm ci --no-audit --no-fund >/dev/null)
(cd "$work" && ./node_modules/.bin/esbuild entry.js --bundle --minify --format=iife \
    --global-name=KILN_THREE --legal-comments=none --charset=utf8 --outfile=three.js \
    --log-level=warning)
if [ "${1:-}" = "--check" ]; then
    cmp "$work/three.js" "$here/../three.js" \
        || { echo "compiler/describe/view/three.js is not what bundle.sh makes" >&2; exit 1; }
    echo "compiler/describe/view/three.js: as bundle.sh makes it"
else
    cp "$work/three.js" "$here/../three.js"
    cp "$work/node_modules/three/LICENSE" "$here/../three-LICENSE"
fi

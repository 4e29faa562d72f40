#!/bin/sh
# run_js.sh JS_DIR INTEROP_EXE: runs js/verify.mjs (paseto-ts cross-check)
# as a TAP test, or skips it cleanly when node or the installed packages
# are missing. Install them with: npm ci --prefix tests/trust/js
# NODE may name another node binary (e.g. to try an older release).
js=$1
exe=$2
node=${NODE:-node}

if ! command -v "$node" >/dev/null 2>&1; then
	echo "1..0 # SKIP node not found"
	exit 0
fi
if [ ! -f "$js/node_modules/paseto-ts/package.json" ]; then
	echo "1..0 # SKIP paseto-ts not installed (npm ci --prefix tests/trust/js)"
	exit 0
fi
exec "$node" "$js/verify.mjs" "$exe"

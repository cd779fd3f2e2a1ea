#!/usr/bin/env bash
# HTTP bench of `txa serve` (see bench/http.mjs): targets ≥ 1,000 req/s and p99 < 50 ms on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/server/serve.js ] || npx tsc -p .
node bench/http.mjs "$@"

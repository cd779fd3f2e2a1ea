#!/usr/bin/env bash
# `txa check` over a whole bench ledger (bench/make-ledger.sh), as a CI job runs it: the built
# CLI, every kind, no period, then one month. Target (issue 12): ≤ 5 s over 1M rows.
# Usage: bench/check.sh [LEDGER] [RUNS]   (default bench/data/ledger-1m.db, 5 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
DB="${1:-bench/data/ledger-1m.db}"
RUNS="${2:-5}"
[ -f "$DB" ] || { echo "no $DB: build it with bench/make-ledger.sh" >&2; exit 1; }
[ -f dist/cli/main.js ] || npm run build >/dev/null
export TXA_DB="$DB" TXA_WORKSPACE=ws_bench TXA_CONFIG_DIR="$(mktemp -d)"
./bin/txa check --json >/dev/null || true   # opens (and migrates) the ledger once, outside the timing
echo "rows: $(sqlite3 "$DB" 'SELECT count(*) FROM transactions')  load: $(cut -d' ' -f1-3 /proc/loadavg)"
# check exits 1 when it finds something: -i keeps hyperfine going.
hyperfine -i -N --warmup 1 --runs "$RUNS" './bin/txa check --json' './bin/txa check --json --period 2025-06'

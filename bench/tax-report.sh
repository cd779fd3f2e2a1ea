#!/usr/bin/env bash
# Tax report bench: the tax CSV (report_type tax, the accounting ledger over every row) against
# the plain CSV export of the same rows on the export bench's ledger, each with its peak RSS.
# Usage: bench/tax-report.sh [ROWS|LEDGER.db] [RUNS]   (default 1,000,000 rows, 1 run each)
# A ledger file (with a workspace ws_bench, e.g. a copy of bench/make-ledger.sh's) is used as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS="${1:-1000000}"
RUNS="${2:-1}"
case "$ROWS" in *.db) DB="$ROWS" ;; *) DB="bench/data/export-bench-${ROWS}.db" ;; esac
mkdir -p bench/data
[ -f dist/engine/exports.js ] || npx tsc -p .
if [ ! -f "$DB" ]; then
  echo "building $DB ($ROWS rows)…" >&2
  node bench/export-ledger.mjs "$DB" "$ROWS"
fi
node -e "import('./dist/engine/engine.js').then(({ Engine }) => Engine.open('$DB').close())"
TIME=/tmp/txa-bench-time.$$
trap 'rm -f $TIME' EXIT
for _ in $(seq "$RUNS"); do
  for report in "" tax; do
    /usr/bin/time -v node bench/export-run.mjs "$DB" csv $report 2>"$TIME" | tr -d '\n'
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$TIME")
    echo "  cpu ${cpu} s  peak RSS $(grep 'Maximum resident' "$TIME" | awk '{printf "%.0f MB", $6/1024}')  load $(cut -d' ' -f1 /proc/loadavg)"
  done
done

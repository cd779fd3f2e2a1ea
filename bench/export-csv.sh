#!/usr/bin/env bash
# Export bench: CSV and JSON of every row of a large ledger through the engine (temp file, fsync,
# rename, SHA-256 included) against `sqlite3 -csv` dumping the same rows, with peak RSS.
# Usage: bench/export-csv.sh [ROWS]   (default 1,000,000; the ledger is built once, deterministically)
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS="${1:-1000000}"
DB="bench/data/export-bench-${ROWS}.db"
mkdir -p bench/data
[ -f dist/engine/exports.js ] || npx tsc -p .
if [ ! -f "$DB" ]; then
  echo "building $DB ($ROWS rows)…" >&2
  node bench/export-ledger.mjs "$DB" "$ROWS"
fi
peak() { grep 'Maximum resident' "$1" | awk '{printf "%.0f MB", $6/1024}'; }
for fmt in csv json; do
  /usr/bin/time -v node bench/export-run.mjs "$DB" "$fmt" 2>/tmp/txa-bench-time.$$ | tr -d '\n'
  echo "  peak RSS $(peak /tmp/txa-bench-time.$$)"
done
SQL="SELECT t.ts, t.tx_hash, t.from_address, t.to_address, w.label, t.chain, t.token_symbol, t.amount, t.fiat_cents, t.direction, t.type, t.notes
     FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.workspace_id = 'ws_bench' ORDER BY t.ts, t.id"
start=$(date +%s.%N)
/usr/bin/time -v sqlite3 -csv "$DB" "$SQL" >/tmp/txa-bench-sqlite.$$.csv 2>/tmp/txa-bench-time.$$
end=$(date +%s.%N)
n=$(wc -l </tmp/txa-bench-sqlite.$$.csv)
awk -v n="$n" -v s="$start" -v e="$end" -v b="$(stat -c %s /tmp/txa-bench-sqlite.$$.csv)" \
  'BEGIN { printf "{\"format\":\"sqlite3 -csv\",\"rows\":%d,\"seconds\":%.2f,\"rows_per_s\":%d,\"bytes\":%d}", n, e-s, n/(e-s), b }'
echo "  peak RSS $(peak /tmp/txa-bench-time.$$)"
rm -f /tmp/txa-bench-time.$$ /tmp/txa-bench-sqlite.$$.csv

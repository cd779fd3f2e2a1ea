#!/usr/bin/env bash
# Issue 13 target 2: CSV and JSON exports of every row of a ledger against the sqlite3 shell
# dumping the same rows (12 stored columns), and the floor of txa's own row SQL
# (bench/export-floor.mjs), interleaved round by round, with peak RSS and the load average.
# Usage: bench/export-realistic.sh LEDGER [ROUNDS]   (LEDGER: a copy of the realistic 1M ledger,
# as bench/make-ledger.sh builds it; it is migrated on first open, so never the original)
set -euo pipefail
cd "$(dirname "$0")/.."
DB="$1"
ROUNDS="${2:-5}"
[ -f dist/engine/exports.js ] || npm run build
node -e "import('./dist/engine/engine.js').then(({ Engine }) => Engine.open('$DB').close())"
ROWS=$(sqlite3 "$DB" "SELECT count(*) FROM transactions WHERE workspace_id = 'ws_bench'")
TIME=$(mktemp)
OUT=$(mktemp)
trap 'rm -f $TIME $OUT' EXIT
peak() { grep 'Maximum resident' "$TIME" | awk '{printf "%.0f", $6/1024}'; }
cpu() { awk '/User time/ {u=$4} /System time/ {s=$4} END {printf "%.2f", u+s}' "$TIME"; }
load() { cut -d' ' -f1 /proc/loadavg; }
FROM="FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.workspace_id = 'ws_bench' ORDER BY t.ts, t.id"
RAW="SELECT t.ts, t.tx_hash, t.from_address, t.to_address, w.label, t.chain, t.token_symbol, t.amount, t.fiat_cents, t.direction, t.type, t.notes $FROM"
txa() { # FORMAT
  local l; l=$(load)
  /usr/bin/time -v node bench/export-run.mjs "$DB" "$1" 2>"$TIME" | tr -d '\n'
  echo "  cpu $(cpu) s  peak $(peak) MB  load $l"
}
floor() { # FORMAT
  local l; l=$(load)
  /usr/bin/time -v node bench/export-floor.mjs "$DB" "$1" 2>"$TIME" | tr -d '\n'
  echo "  peak $(peak) MB  load $l"
}
shell() { # MODE
  local start end l; l=$(load)
  start=$(date +%s.%N)
  /usr/bin/time -v sqlite3 "-$1" "$DB" "$RAW" >"$OUT" 2>"$TIME"
  end=$(date +%s.%N)
  awk -v name="sqlite3 -$1" -v n="$ROWS" -v s="$start" -v e="$end" -v b="$(stat -c %s "$OUT")" \
    'BEGIN { printf "{\"format\":\"%s\",\"rows\":%d,\"seconds\":%.2f,\"rows_per_s\":%d,\"bytes\":%d}", name, n, e-s, n/(e-s), b }'
  echo "  cpu $(cpu) s  peak $(peak) MB  load $l"
}
for round in $(seq "$ROUNDS"); do
  echo "# round $round"
  txa csv; shell csv; floor csv
  txa json; shell json; floor json
done

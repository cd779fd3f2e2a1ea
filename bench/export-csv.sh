#!/usr/bin/env bash
# Export bench: CSV and JSON of every row of a large ledger through the engine (temp file, fsync,
# rename, SHA-256 included) against the sqlite3 shell dumping the same rows, with peak RSS.
#   sqlite3 -csv  / -json : the stored columns as they are (the issue's yardstick);
#   sqlite3 -csv, same cells: the cells txa writes (formatted date and fiat value, tag and
#   attachment names), so the shell does the same work.
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
# Open it once through the engine so any migration runs before the timings.
node -e "import('./dist/engine/engine.js').then(({ Engine }) => Engine.open('$DB').close())"
TIME=/tmp/txa-bench-time.$$
OUT=/tmp/txa-bench-sqlite.$$
trap 'rm -f $TIME $OUT' EXIT
peak() { grep 'Maximum resident' "$TIME" | awk '{printf "%.0f MB", $6/1024}'; }
for fmt in csv json; do
  /usr/bin/time -v node bench/export-run.mjs "$DB" "$fmt" 2>"$TIME" | tr -d '\n'
  echo "  peak RSS $(peak)"
done
FROM="FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.workspace_id = 'ws_bench' ORDER BY t.ts, t.id"
RAW="SELECT t.ts, t.tx_hash, t.from_address, t.to_address, w.label, t.chain, t.token_symbol, t.amount, t.fiat_cents, t.direction, t.type, t.notes $FROM"
CELLS="SELECT date(t.ts, 'unixepoch'), t.tx_hash, t.from_address, t.to_address, w.label, t.chain, t.token_symbol, t.amount,
  printf('%.2f', t.fiat_cents / 100.0), t.direction, t.type,
  (SELECT group_concat(name, '; ') FROM (SELECT g.name FROM transaction_tags x JOIN tags g ON g.id = x.tag_id WHERE x.transaction_id = t.id ORDER BY g.name COLLATE NOCASE, g.id)),
  t.notes,
  (SELECT group_concat(file_name, '; ') FROM (SELECT a.file_name FROM attachments a WHERE a.transaction_id = t.id ORDER BY a.uploaded_at, a.rowid))
  $FROM"
shell() { # NAME MODE SQL
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -v sqlite3 "-$2" "$DB" "$3" >"$OUT" 2>"$TIME"
  end=$(date +%s.%N)
  awk -v name="$1" -v n="$ROWS" -v s="$start" -v e="$end" -v b="$(stat -c %s "$OUT")" \
    'BEGIN { printf "{\"format\":\"%s\",\"rows\":%d,\"seconds\":%.2f,\"rows_per_s\":%d,\"bytes\":%d}", name, n, e-s, n/(e-s), b }'
  echo "  peak RSS $(peak)"
}
shell 'sqlite3 -csv' csv "$RAW"
shell 'sqlite3 -json' json "$RAW"
shell 'sqlite3 -csv, same cells' csv "$CELLS"

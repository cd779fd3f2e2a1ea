#!/usr/bin/env bash
# `txa tx list` on the 1M-transaction ledger against the sqlite3 shell running the same SQL
# (captured from the engine by bench/tx-list-sql.mjs) on the same file, plus the start-up floor
# (`node -e 0`) and `txa --version`. Medians of hyperfine runs; targets checked at the end.
#   bench/make-ledger.sh && bench/tx-list.sh        (RUNS=20 DB=… to change)
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-bench/data/ledger-1m.db}
RUNS=${RUNS:-15}
WS=ws_bench
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install -y hyperfine" >&2; exit 1; }
[ -f "$DB" ] || { echo "$DB is missing: run bench/make-ledger.sh first" >&2; exit 1; }

A='--chain ethereum --start-date 2026-05-01 --end-date 2026-10-31'
B='--min-amount 1000 --max-amount 5000 --sort amount_desc'
node bench/tx-list-sql.mjs "$DB" "$WS" a="$A" b="$B" c=''

# bin/txa runs the rolldown bundle only while it is at least as new as tsc's output (see bin/txa).
if [ -f dist/bundle/txa.js ] && ! [ dist/cli/main.js -nt dist/bundle/txa.js ]; then
  echo "bin/txa runs the bundle (dist/bundle/)"
else
  echo "bin/txa runs the unbundled dist/cli/main.js: the bundle is missing or older than tsc's output (npm run build)"
fi

# A clean profile: no stored workspace, db or remote settings leak in.
export TXA_CONFIG_DIR="$(mktemp -d)" NO_COLOR=1
unset TXA_BASE_URL TXA_API_KEY TXA_WORKSPACE TXA_DB TXA_PROFILE

TXA="bin/txa --db $DB -w $WS tx list"
hyperfine -N --warmup 3 --runs "$RUNS" --export-json bench/data/tx-list.json \
  -n 'node -e 0' 'node -e 0' \
  -n 'txa --version' 'bin/txa --version' \
  -n 'a txa: chain + 6 months' "$TXA $A" \
  -n 'a sqlite3' "sqlite3 $DB '.read bench/data/sql/a.sql'" \
  -n 'b txa: amount range by amount' "$TXA $B" \
  -n 'b sqlite3' "sqlite3 $DB '.read bench/data/sql/b.sql'" \
  -n 'c txa: no filter' "$TXA" \
  -n 'c sqlite3' "sqlite3 $DB '.read bench/data/sql/c.sql'"
node bench/tx-list-report.mjs bench/data/tx-list.json

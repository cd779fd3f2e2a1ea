#!/usr/bin/env bash
# `txa tx list` on the 1M-transaction ledger against the floor (bench/floor.cjs: require
# better-sqlite3, open the ledger read-only, run the same SQL) and the sqlite3 shell running the
# same SQL (both captured from the engine by bench/tx-list-sql.mjs), plus `node -e 0` and
# `txa --version`, all in one hyperfine run. Medians; targets (issue 13) checked at the end.
#   bench/make-ledger.sh && bench/tx-list.sh        (ROUNDS=10 RUNS=2 DB=… to change)
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-bench/data/ledger-1m.db}
ROUNDS=${ROUNDS:-10}
RUNS=${RUNS:-2}
WS=ws_bench
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install -y hyperfine" >&2; exit 1; }
[ -f "$DB" ] || { echo "$DB is missing: run bench/make-ledger.sh first" >&2; exit 1; }

A='--chain ethereum --start-date 2026-05-01 --end-date 2026-10-31'
B='--min-amount 1000 --max-amount 5000 --sort amount_desc'
# Tag filters (issue 13, target 1): a common tag (77k rows), a rare one (179), has_tags.
tag() { sqlite3 -readonly "$DB" "SELECT id FROM tags WHERE workspace_id = '$WS' AND name = '$1'"; }
T="--tag-ids $(tag 'Staking rewards')"
R="--tag-ids $(tag Payroll)"
H='--has-tags true'
node bench/tx-list-sql.mjs "$DB" "$WS" a="$A" b="$B" c='' t="$T" r="$R" h="$H"

# bin/txa runs the rolldown bundle only while it is at least as new as tsc's output (see bin/txa).
if [ -f dist/bundle/txa.cjs ] && ! [ dist/cli/main.js -nt dist/bundle/txa.cjs ]; then
  echo "bin/txa runs the bundle (dist/bundle/)"
else
  echo "bin/txa runs the unbundled dist/cli/main.js: the bundle is missing or older than tsc's output (npm run build)"
fi

# A clean profile: no stored workspace, db or remote settings leak in.
export TXA_CONFIG_DIR="$(mktemp -d)" NO_COLOR=1
unset TXA_BASE_URL TXA_API_KEY TXA_WORKSPACE TXA_DB TXA_PROFILE

TXA="bin/txa --db $DB -w $WS tx list"
# hyperfine runs each command's runs back to back, so a burst of load on this shared machine
# lands on one command. ROUNDS short runs of every command interleave them instead; the report
# takes the medians over all rounds.
rm -f bench/data/tx-list-*.json
for round in $(seq "$ROUNDS"); do
  hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json "bench/data/tx-list-$round.json" \
    -n 'node -e 0' 'node -e 0' \
    -n 'txa --version' 'bin/txa --version' \
    -n 'a txa: chain + 6 months' "$TXA $A" \
    -n 'a floor' "node bench/floor.cjs $DB bench/data/sql/a.sql" \
    -n 'a sqlite3' "sqlite3 $DB '.read bench/data/sql/a.sql'" \
    -n 'b txa: amount range by amount' "$TXA $B" \
    -n 'b floor' "node bench/floor.cjs $DB bench/data/sql/b.sql" \
    -n 'b sqlite3' "sqlite3 $DB '.read bench/data/sql/b.sql'" \
    -n 'c txa: no filter' "$TXA" \
    -n 'c floor' "node bench/floor.cjs $DB bench/data/sql/c.sql" \
    -n 'c sqlite3' "sqlite3 $DB '.read bench/data/sql/c.sql'" \
    -n 't txa: a common tag' "$TXA $T" \
    -n 't floor' "node bench/floor.cjs $DB bench/data/sql/t.sql" \
    -n 't sqlite3' "sqlite3 $DB '.read bench/data/sql/t.sql'" \
    -n 'r txa: a rare tag' "$TXA $R" \
    -n 'r floor' "node bench/floor.cjs $DB bench/data/sql/r.sql" \
    -n 'r sqlite3' "sqlite3 $DB '.read bench/data/sql/r.sql'" \
    -n 'h txa: has_tags' "$TXA $H" \
    -n 'h floor' "node bench/floor.cjs $DB bench/data/sql/h.sql" \
    -n 'h sqlite3' "sqlite3 $DB '.read bench/data/sql/h.sql'" >/dev/null
  echo "round $round/$ROUNDS, load $(cut -d' ' -f1-3 /proc/loadavg)"
done
node bench/tx-list-report.mjs bench/data/tx-list-*.json

#!/usr/bin/env bash
# Builds the benchmark ledgers in bench/data/ (gitignored) with the fixture generator, writing
# every row through the real import pipeline (engine/imports.ts importRecords) in batches of
# 20,000 (one import transaction each), and prints the import throughput of each as one JSON line.
#   bench/make-ledger.sh                 # 100k and 1M transactions
#   SIZES="100000" bench/make-ledger.sh  # only some sizes
#   DIR=/tmp/ledgers bench/make-ledger.sh # somewhere else (default bench/data)
#   BATCH=1000000 bench/make-ledger.sh   # rows per import (memory grows with it)
#   DAYS=2026-07-01..2026-09-30 SIZES=1000000 bench/make-ledger.sh
#                                        # the rows on other days (ledger-1m-days.db; one quarter
#                                        # for bench/http-schedule.mjs's 1M-row scheduled run)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/fixtures/cli.js ] || npx tsc -p .
dir=${DIR:-bench/data}
mkdir -p "$dir"
for n in ${SIZES:-100000 1000000}; do
  case $n in
    *000000) label="$((n / 1000000))m" ;;
    *000) label="$((n / 1000))k" ;;
    *) label="$n" ;;
  esac
  out="$dir/ledger-$label${DAYS:+-days}.db"
  rm -f "$out" "$out-wal" "$out-shm"
  echo "building $out ($n transactions)…" >&2
  node dist/fixtures/cli.js ledger --transactions "$n" --out "$out" --batch "${BATCH:-20000}" ${DAYS:+--days "$DAYS"}
done

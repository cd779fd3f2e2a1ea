#!/usr/bin/env bash
# The same commands of two builds of txa on one ledger, interleaved (ROUNDS rounds of one run of
# each command of each build, so a burst of load on a shared machine lands on both), with the
# medians and the ratio B/A: how a refactor shows it keeps the speed of what it moved.
#   bench/make-ledger.sh && bench/compare-builds.sh /path/to/checkout-A /path/to/checkout-B
#   (DB=… ROUNDS=… NAMES="check export-csv" to change; both checkouts built with npm run build)
# `import` is each checkout's own bench/import.mjs (IMPORT_N rows, 100,000 by default, into a fresh
# ledger, in process): its time is the first import's, as the script measures it, not the process's.
set -euo pipefail
cd "$(dirname "$0")/.."
A=$1
B=$2
DB=${DB:-bench/data/ledger-1m.db}
ROUNDS=${ROUNDS:-5}
WS=ws_bench
command -v hyperfine >/dev/null || { echo "hyperfine is missing: apt-get install -y hyperfine" >&2; exit 1; }
[ -f "$DB" ] || { echo "$DB is missing: run bench/make-ledger.sh first" >&2; exit 1; }
export TXA_CONFIG_DIR="$(mktemp -d)" NO_COLOR=1
unset TXA_BASE_URL TXA_API_KEY TXA_WORKSPACE TXA_DB TXA_PROFILE
work=$(mktemp -d)
cp "$DB" "$work/ledger.db"
tag=$(sqlite3 -readonly "$work/ledger.db" "SELECT id FROM tags WHERE workspace_id = '$WS' AND name = 'Staking rewards'")
declare -A CMDS=(
  [list-filtered]="tx list --chain ethereum --start-date 2026-05-01 --end-date 2026-10-31 --json"
  [list-tag]="tx list --tag-ids $tag --json"
  [check]="check --period 2026 --json"
  [export-csv]="export create --format csv --out $work/out.csv --json"
  [rules-dry-run]="rules apply bench/rules-1m.yaml --dry-run --json"
  [audit-pdf]="export create --format pdf --report-type audit --start-date 2025-01-01 --end-date 2025-02-04 --out $work/out.pdf --json"
)
read -r -a names <<<"${NAMES:-list-filtered list-tag check export-csv rules-dry-run audit-pdf import}"
# One import run of a checkout, as hyperfine's JSON shape ({results: [{mean}]}) for the summary below.
import_run() {
  node "$1/bench/import.mjs" --runs 1 --transactions "${IMPORT_N:-100000}" 2>/dev/null | head -1 |
    node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(JSON.stringify({ results: [{ mean: r.transactions / r.import_tx_per_s, user: r.transactions / r.import_tx_per_cpu_s, system: 0 }] }))' >"$2"
}
for ((r = 1; r <= ROUNDS; r++)); do
  for name in "${names[@]}"; do
    # Each round starts with the other build, so neither always meets a warmer page cache.
    order="A B"
    ((r % 2 == 0)) && order="B A"
    for side in $order; do
      dir=${!side}
      if [ "$name" = import ]; then
        import_run "$dir" "$work/$name-$side-$r.json" || true
        continue
      fi
      # -i: check exits 1 when it finds something, which is its answer, not a failure.
      hyperfine -N -i --runs 1 --style none --export-json "$work/$name-$side-$r.json" \
        "$dir/bin/txa --db $work/ledger.db -w $WS ${CMDS[$name]}" >/dev/null 2>&1 || true
    done
  done
done
echo "ledger $DB, $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
node -e '
const fs = require("fs"); const [dir, rounds, ...names] = process.argv.slice(1);
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
// Wall time, and CPU time (user + system), which a loaded machine moves less.
const runsOf = (name, side) => Array.from({ length: +rounds }, (_, i) => JSON.parse(fs.readFileSync(`${dir}/${name}-${side}-${i + 1}.json`)).results[0]);
for (const name of names) {
  const wall = (side) => med(runsOf(name, side).map((r) => r.mean));
  const cpu = (side) => med(runsOf(name, side).map((r) => r.user + r.system));
  const [a, b, ca, cb] = [wall("A"), wall("B"), cpu("A"), cpu("B")];
  console.log(`${name.padEnd(14)} A ${a.toFixed(3)} s  B ${b.toFixed(3)} s  B/A ${(b / a).toFixed(3)}   CPU A ${ca.toFixed(3)} s  B ${cb.toFixed(3)} s  B/A ${(cb / ca).toFixed(3)}`);
}' "$work" "$ROUNDS" "${names[@]}"
rm -rf "$work"

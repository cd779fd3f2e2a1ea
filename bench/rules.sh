#!/usr/bin/env bash
# `txa rules apply` of 20 rules (bench/rules-1m.yaml) over a bench ledger (bench/make-ledger.sh,
# or the realistic 1M ledger: pass a copy, the run writes to it). Target (issue 12): ≤ 15 s.
# Times the first run once (it tags, annotates and marks ~300k rows, with their events), then the
# runs after it (nothing left to change: the matching alone) and a dry run.
# Usage: bench/rules.sh LEDGER-COPY [RUNS]   (default 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
DB="${1:?pass a copy of a bench ledger: the first run writes to it}"
RUNS="${2:-3}"
RULES=bench/rules-1m.yaml
[ -f dist/cli/main.js ] || npm run build >/dev/null
export TXA_DB="$DB" TXA_WORKSPACE=ws_bench TXA_CONFIG_DIR="$(mktemp -d)"
./bin/txa tags list >/dev/null   # opens (and migrates) the ledger once, outside the timing
echo "rows: $(sqlite3 "$DB" 'SELECT count(*) FROM transactions')  load: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f 'first run: %e s wall, %U s user, %M KB max RSS' ./bin/txa rules apply "$RULES" --json | node -e 'const d = JSON.parse(require("fs").readFileSync(0)).data; console.log(`changed ${d.changed}`)'
hyperfine -N --runs "$RUNS" "./bin/txa rules apply $RULES --json" "./bin/txa rules apply $RULES --json --dry-run"

#!/usr/bin/env bash
# `txa check --json` of two builds on their own copies of one ledger, interleaved, with the CPU time
# (user + system) beside the wall time and peak RSS, then whether the two outputs are identical.
#   bench/compare-check.sh BUILD_A BUILD_B LEDGER [ROUNDS]   (builds: checkouts with `npm run build` done; default 3 rounds)
set -euo pipefail
A=$1 B=$2 LEDGER=$3 ROUNDS=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$LEDGER" "$tmp/a.db"
cp "$LEDGER" "$tmp/b.db"
echo "load: $(uptime)"
for r in $(seq "$ROUNDS"); do
  for b in a b; do
    dir=$([ $b = a ] && echo "$A" || echo "$B")
    /usr/bin/time -o "$tmp/t" -f "$b round $r: %e s wall, %U+%S s cpu, %M KB" "$dir/bin/txa" --db "$tmp/$b.db" -w ws_bench check --json >"$tmp/$b.json" || true
    cat "$tmp/t" | grep -v 'exited with'
  done
done
cmp "$tmp/a.json" "$tmp/b.json" && echo "outputs identical"
echo "load: $(uptime)"

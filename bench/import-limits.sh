#!/usr/bin/env bash
# Time and peak RSS of imports that must be refused: 200,000 bad CSV rows, one 50 MB line,
# /dev/zero. Usage: bench/import-limits.sh [path/to/bin/txa]   (default: this checkout's bin/txa)
set -euo pipefail
TXA=${1:-$(dirname "$0")/../bin/txa}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
export TXA_DB=$DIR/ledger.db TXA_CONFIG_DIR=$DIR/config NO_COLOR=1
node -e '
const fs = require("fs");
const dir = process.argv[1];
const head = "date,tx_hash,from_address,to_address,wallet_label,chain,token,amount,fiat_value,direction,type,tags,notes,attachments\n";
const rows = [head];
for (let i = 0; i < 200000; i++) rows.push(`2024-03-01,0x${i.toString(16).padStart(64, "0")},0x9999999999999999999999999999999999999999,0x1234567890abcdef1234567890abcdef12345678,Main,ethereum,ETH,bad${i},1.00,inflow,transfer,,,\n`);
fs.writeFileSync(dir + "/bad-rows.csv", rows.join(""));
fs.writeFileSync(dir + "/long-line.csv", head + "x".repeat(50 * 1024 * 1024) + "\n");
' "$DIR"
WS=$("$TXA" workspace create Bench --json | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.id')
"$TXA" -w "$WS" wallet add --address 0x1234567890abcdef1234567890abcdef12345678 --chain ethereum --label Main >/dev/null
for file in "$DIR/bad-rows.csv" "$DIR/long-line.csv" /dev/zero; do
  /usr/bin/time -f "$(basename "$file"): exit %x, %e s wall, %U s user, peak RSS %M KB" timeout 120 "$TXA" -w "$WS" import "$file" >/dev/null 2>"$DIR/err" || true
  tail -n 1 "$DIR/err"
  head -n 1 "$DIR/err" | cut -c1-160
done

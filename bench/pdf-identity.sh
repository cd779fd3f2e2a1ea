#!/usr/bin/env bash
# The audit, detailed, summary and tax PDFs of one seeded ledger, written by BIN with the clock pinned, and the
# SHA-256 of their text (pdftotext -layout). Run it with two builds on copies of the same ledger
# and compare: a speed change to the PDF writers must leave the text unchanged. Random ids (the
# export's, the attachment's) are masked, and with them the data hash, which covers the
# attachment id (test/pdf/audit.test.ts checks the hash itself). The words' sum (text and
# position of every word) is the one to compare; the text's can differ with the ids' widths.
#   node dist/fixtures/cli.js ledger --transactions 3000 --out /tmp/seed.db
#   bench/pdf-identity.sh /tmp/seed.db /tmp/before [BIN]; … /tmp/after; diff /tmp/before/sums /tmp/after/sums
set -euo pipefail
LEDGER=${1:?usage: bench/pdf-identity.sh LEDGER OUTDIR [BIN]}
OUT=${2:?usage: bench/pdf-identity.sh LEDGER OUTDIR [BIN]}
BIN=${3:-bin/txa}
mkdir -p "$OUT"
cp "$LEDGER" "$OUT/ledger.db"
export TXA_NOW=2026-11-01T00:00:00Z TXA_CONFIG_DIR="$(mktemp -d)" NO_COLOR=1
unset TXA_BASE_URL TXA_API_KEY TXA_WORKSPACE TXA_DB TXA_PROFILE
txa() { "$BIN" --db "$OUT/ledger.db" -w ws_bench "$@"; }

# Some history beyond `transaction.created`: notes, tags, an attachment, on the first rows.
ids=$(txa tx list --sort timestamp_asc --limit 5 --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.map(t=>t.id).join(" ")))')
tag=$(txa tags list --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data[0].id))')
printf 'receipt for the audit\n' > "$OUT/receipt.txt"
for id in $ids; do
  txa tx update "$id" --notes "Checked against invoice ${id: -4}, 日本 branch" >/dev/null
  txa tx tag "$id" "$tag" >/dev/null
done
txa tx attach "${ids%% *}" "$OUT/receipt.txt" >/dev/null

: > "$OUT/sums"
for report in audit detailed summary tax; do
  txa export create --format pdf --report-type "$report" --out "$OUT/$report.pdf" >/dev/null
  pdftotext -layout "$OUT/$report.pdf" - | sed -E 's/(exp|att)_[0-9a-f]+/\1_X/g; s/(Data SHA-256: )[0-9a-f]{64}/\1X/' > "$OUT/$report.txt"
  # Every word with its box: the random ids' widths move pdftotext -layout's columns now and then
  # (the tax report's), so the boxes of those words are masked too.
  pdftotext -bbox "$OUT/$report.pdf" - | sed -E 's/xMax="[^"]*"( yMax="[^"]*">)((exp|att)_[0-9a-f]+|[0-9a-f]{64})</xMax="X"\1X</' > "$OUT/$report.words"
  echo "$report text $(sha256sum < "$OUT/$report.txt" | cut -d' ' -f1) $(wc -l < "$OUT/$report.txt") lines, words $(sha256sum < "$OUT/$report.words" | cut -d' ' -f1)" >> "$OUT/sums"
done
cat "$OUT/sums"

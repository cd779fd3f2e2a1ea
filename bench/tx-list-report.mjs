// Reads the rounds of hyperfine JSON from bench/tx-list.sh and prints the medians over all of
// their runs beside the targets of
// issue 13: `tx list` (a) and (c) ≤ the floor on the same SQL + 25 ms; `txa --version` ≤ node -e 0
// + 20 ms; the tag filters (t, r, h) ≤ the floor + 150 ms. (b) is shown against its floor too.
// The CPU column (hyperfine's mean user + system time) moves less than wall time on a shared
// machine.
import { readFileSync } from 'node:fs';

const rounds = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, 'utf8')).results);
const runsOf = (name) => rounds.map((results) => results.find((r) => r.command === name));
const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (name) => 1000 * median(runsOf(name).flatMap((r) => r.times));
/** hyperfine keeps only the mean CPU time of a command's runs: the mean over the rounds' means. */
const cpu = (name) => (1000 * median(runsOf(name).map((r) => r.user + r.system))).toFixed(1);
const results = rounds[0];
const node = ms('node -e 0');
const rows = [['case', 'txa (ms)', 'txa CPU (ms)', 'floor (ms)', 'floor CPU (ms)', 'sqlite3 (ms)', 'target (ms)', 'txa − floor', 'verdict']];
const verdict = (value, target) => (value <= target ? 'ok' : `MISSED by ${(value - target).toFixed(1)} ms`);
const version = ms('txa --version');
rows.push(['txa --version', version.toFixed(1), cpu('txa --version'), '', '', '', (node + 20).toFixed(1), '', verdict(version, node + 20)]);
// Each case and its allowance over the floor: start-up (target 3) or the tag filters (target 1, which also hold the SQL's own speed to account in bench/summary.mjs); b has none.
const CASES = { a: 25, b: undefined, c: 25, t: 150, r: 150, h: 150 };
for (const [c, allowance] of Object.entries(CASES)) {
  const txa = results.find((r) => r.command.startsWith(`${c} txa`))?.command;
  if (!txa) continue;
  const floor = ms(`${c} floor`);
  const target = floor + (allowance ?? 25);
  rows.push([
    txa.slice(2).replace(/^txa: /, ''),
    ms(txa).toFixed(1),
    cpu(txa),
    floor.toFixed(1),
    cpu(`${c} floor`),
    ms(`${c} sqlite3`).toFixed(1),
    target.toFixed(1),
    (ms(txa) - floor).toFixed(1),
    allowance === undefined ? '(no target)' : verdict(ms(txa), target),
  ]);
}
console.log(`${rounds.length} rounds × ${rounds[0][0].times.length} runs; node -e 0: ${node.toFixed(1)} ms (median), CPU ${cpu('node -e 0')} ms`);
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i])).join('  '));

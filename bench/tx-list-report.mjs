// Reads hyperfine's JSON from bench/tx-list.sh and prints the medians side by side with the targets:
// each `tx list` ≤ node -e 0 + 1.3 × sqlite3 on the same SQL; `txa --version` ≤ node -e 0 + 40 ms.
// The CPU column (hyperfine's mean user + system time) moves less than wall time on a shared machine.
import { readFileSync } from 'node:fs';

const { results } = JSON.parse(readFileSync(process.argv[2] ?? 'bench/data/tx-list.json', 'utf8'));
const result = (name) => results.find((r) => r.command === name);
const ms = (name) => 1000 * result(name).median;
const cpu = (name) => (1000 * (result(name).user + result(name).system)).toFixed(1);
const node = ms('node -e 0');
const rows = [['case', 'txa (ms)', 'txa CPU (ms)', 'sqlite3 (ms)', 'target (ms)', 'verdict']];
const verdict = (value, target) => (value <= target ? 'ok' : `MISSED by ${(value - target).toFixed(1)} ms`);
const version = ms('txa --version');
rows.push(['txa --version', version.toFixed(1), cpu('txa --version'), '', (node + 40).toFixed(1), verdict(version, node + 40)]);
for (const c of ['a', 'b', 'c']) {
  const txa = results.find((r) => r.command.startsWith(`${c} txa`)).command;
  const sqlite = ms(`${c} sqlite3`);
  const target = node + 1.3 * sqlite;
  rows.push([txa.slice(2).replace(/^txa: /, ''), ms(txa).toFixed(1), cpu(txa), sqlite.toFixed(1), target.toFixed(1), verdict(ms(txa), target)]);
}
console.log(`node -e 0: ${node.toFixed(1)} ms (median), CPU ${cpu('node -e 0')} ms`);
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i])).join('  '));

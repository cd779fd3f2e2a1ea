// CPU and wall time of each `txa check` kind (src/checks/kinds.ts) on a ledger opened read-only,
// as built in DIST (this tree's dist/, or another build's, to compare): medians of RUNS.
// Usage: node bench/check-kinds.mjs DIST LEDGER [RUNS] [WORKSPACE]
// The ledger must already be at DIST's schema (run `txa check` on it once).
import Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, ledger, runs = '3', ws = 'ws_bench'] = process.argv.slice(2);
const { KIND_QUERIES } = await import(pathToFileURL(resolve(dist, 'checks/kinds.js')).href);
const db = new Database(ledger, { readonly: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [kind, query] of Object.entries(KIND_QUERIES)) {
  const cpu = [];
  const wall = [];
  let count = 0;
  for (let i = 0; i < Number(runs); i++) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    count = query(db, ws, {}).count;
    wall.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  console.log(
    `${kind.padEnd(20)} count ${String(count).padStart(7)}  cpu ${median(cpu).toFixed(0).padStart(6)} ms  wall ${median(wall).toFixed(0).padStart(6)} ms`,
  );
}

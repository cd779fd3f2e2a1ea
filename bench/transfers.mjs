// Own-transfer matching over a whole ledger (issue 10; target ≤ 10 s on the 1M-row ledger):
//   1. auto-matching from scratch, as `txa transfers match --auto` runs it: every transfer of the
//      workspace is removed first, then engine/transfers.ts autoMatch reads every row in time
//      order and links the internal pairs and one-leg transfers;
//   2. the proposed bridges (`txa transfers list --status candidate`, one page): every free row
//      in time order through accounting/transfers.ts bridgeCandidates.
// All in one transaction that is rolled back, so the ledger is left as it was. Prints one JSON line.
//   node bench/transfers.mjs [LEDGER] [WORKSPACE] [--dist DIR] [--only auto|candidates] [--dump FILE]
// --dist: another build's dist/ (A against B in one run; the ledger must be at its schema).
// --only: time one of the two (candidates: the proposals among the rows as the ledger holds them,
//   transfers kept). --dump: every proposal, one `out_id in_id` line each in their order, to FILE
//   (read again after the timed page: compare two builds' files with cmp).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dist: { type: 'string', default: 'dist' }, only: { type: 'string' }, dump: { type: 'string' } },
});
const load = (path) => import(pathToFileURL(resolve(values.dist, path)).href);
const { Engine } = await load('engine/engine.js');
const { autoMatch, listTransfers } = await load('engine/transfers.js');
const { proposedBridges } = await load('engine/bridges.js');

const ledger = positionals[0] ?? 'bench/data/ledger-1m.db';
const ws = positionals[1] ?? 'ws_bench';
const engine = Engine.open(ledger);
const rows = engine.db.prepare('SELECT count(*) FROM transactions WHERE workspace_id = ?').pluck().get(ws);
const seconds = (t0) => Number((Number(process.hrtime.bigint() - t0) / 1e9).toFixed(2));

const result = { ledger, dist: values.dist, rows };
const cpu0 = process.cpuUsage();
engine.db.exec('BEGIN IMMEDIATE');
try {
  if (values.only !== 'candidates') {
    engine.db.prepare('UPDATE transactions SET transfer_id = NULL WHERE workspace_id = ? AND transfer_id IS NOT NULL').run(ws);
    engine.db.prepare('DELETE FROM transfers WHERE workspace_id = ?').run(ws);
    engine.db.prepare('DELETE FROM transfer_rejections WHERE workspace_id = ?').run(ws);
    const t0 = process.hrtime.bigint();
    result.auto_legs_matched = autoMatch(engine, ws);
    result.auto_seconds = seconds(t0);
  }
  if (values.only !== 'auto') {
    const t0 = process.hrtime.bigint();
    const page = listTransfers(engine, ws, { status: 'candidate', limit: '50' });
    result.candidates = page.pagination.total;
    result.candidates_seconds = seconds(t0);
    if (values.dump)
      writeFileSync(
        values.dump,
        proposedBridges(engine.db, ws)
          .map((p) => `${p.out.id} ${p.in.id}\n`)
          .join(''),
      );
  }
} finally {
  engine.db.exec('ROLLBACK');
  engine.close();
}
const cpu = process.cpuUsage(cpu0);
result.cpu_seconds = Number(((cpu.user + cpu.system) / 1e6).toFixed(1));
result.rss_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
console.log(JSON.stringify(result));

// Own-transfer matching over a whole ledger (issue 10; target ≤ 10 s on the 1M-row ledger):
//   1. auto-matching from scratch, as `txa transfers match --auto` runs it: every transfer of the
//      workspace is removed first, then engine/transfers.ts autoMatch reads every row in time
//      order and links the internal pairs and one-leg transfers;
//   2. the proposed bridges (`txa transfers list --status candidate`, one page): every free row
//      in time order through accounting/transfers.ts bridgeCandidates.
// All in one transaction that is rolled back, so the ledger is left as it was. Prints one JSON line.
//   node bench/transfers.mjs [LEDGER] [WORKSPACE]   (default bench/data/ledger-1m.db, ws_bench)
import { Engine } from '../dist/engine/engine.js';
import { autoMatch, listTransfers } from '../dist/engine/transfers.js';

const ledger = process.argv[2] ?? 'bench/data/ledger-1m.db';
const ws = process.argv[3] ?? 'ws_bench';
const engine = Engine.open(ledger);
const rows = engine.db.prepare('SELECT count(*) FROM transactions WHERE workspace_id = ?').pluck().get(ws);
const seconds = (t0) => Number((Number(process.hrtime.bigint() - t0) / 1e9).toFixed(2));

const result = { ledger, rows };
engine.db.exec('BEGIN IMMEDIATE');
try {
  engine.db.prepare('UPDATE transactions SET transfer_id = NULL WHERE workspace_id = ? AND transfer_id IS NOT NULL').run(ws);
  engine.db.prepare('DELETE FROM transfers WHERE workspace_id = ?').run(ws);
  engine.db.prepare('DELETE FROM transfer_rejections WHERE workspace_id = ?').run(ws);
  let t0 = process.hrtime.bigint();
  result.auto_legs_matched = autoMatch(engine, ws);
  result.auto_seconds = seconds(t0);
  t0 = process.hrtime.bigint();
  const page = listTransfers(engine, ws, { status: 'candidate', limit: '50' });
  result.candidates = page.pagination.total;
  result.candidates_seconds = seconds(t0);
} finally {
  engine.db.exec('ROLLBACK');
  engine.close();
}
result.rss_mb = Math.round(process.memoryUsage().rss / 2 ** 20);
console.log(JSON.stringify(result));

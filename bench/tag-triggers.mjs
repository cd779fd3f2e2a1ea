// What the tag rollups' triggers (migration 16) cost an import: 100k rows of the benchmark dataset
// (fixtures/spec.ts, with its tags) imported in one call into a fresh ledger, with the triggers
// and without them (dropped right after the ledger is created: the import of the schema before
// migration 16, less its usage-count column), interleaved run by run. Medians.
//   node bench/tag-triggers.mjs [--transactions N] [--runs R]      (defaults: 100000, 5)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../dist/engine/engine.js';
import { ensureDataset } from '../dist/engine/demo.js';
import { importRecords } from '../dist/engine/imports.js';
import { datasetHeader } from '../dist/fixtures/fixture-file.js';
import { generateRecords } from '../dist/fixtures/generate.js';
import { ledgerSpec } from '../dist/fixtures/spec.js';

const { values } = parseArgs({ options: { transactions: { type: 'string' }, runs: { type: 'string' } } });
const n = Number(values.transactions ?? 100_000);
const runs = Number(values.runs ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'txa-tag-triggers-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const spec = ledgerSpec(n);
const rows = [...generateRecords(spec)];
const TRIGGERS = ['tag_rollup_link_added', 'tag_rollup_link_removed', 'tag_rollup_value_changed', 'tag_usage_added', 'tag_usage_removed'];

function importOnce(withTriggers) {
  const path = join(dir, 'ledger.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const engine = Engine.open(path);
  try {
    ensureDataset(engine, datasetHeader(spec));
    if (!withTriggers) for (const t of TRIGGERS) engine.db.exec(`DROP TRIGGER ${t}`);
    const t = process.hrtime.bigint();
    const { imported } = importRecords(engine, spec.workspace.id, rows, { format: 'fixture' });
    const seconds = Number(process.hrtime.bigint() - t) / 1e9;
    const links = engine.db.prepare('SELECT count(*) FROM transaction_tags').pluck().get();
    if (imported !== n) throw new Error(`imported ${imported} of ${n}`);
    return { seconds, links };
  } finally {
    engine.close();
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const times = { with: [], without: [] };
let links = 0;
for (let run = 1; run <= runs; run++) {
  for (const mode of run % 2 ? ['with', 'without'] : ['without', 'with']) {
    const r = importOnce(mode === 'with');
    times[mode].push(r.seconds);
    links = r.links;
  }
  process.stderr.write(`run ${run}/${runs}: with ${times.with.at(-1).toFixed(2)} s, without ${times.without.at(-1).toFixed(2)} s, load ${load()}\n`);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const [w, wo] = [median(times.with), median(times.without)];
console.log(
  JSON.stringify({ transactions: n, links, with_tx_per_s: Math.round(n / w), without_tx_per_s: Math.round(n / wo), ratio: +(wo / w).toFixed(3), load: load() }),
);

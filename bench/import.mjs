// Import throughput of the real pipeline (engine/imports.ts importRecords), the way `txa import`
// runs it: the generated rows of the benchmark dataset (fixtures/spec.ts ledgerSpec), already in
// memory, imported in ONE call (one database transaction) unless --batch splits them. Optionally
// into a ledger that already holds --existing older rows of the same dataset (imported first,
// untimed). Then the same rows again: every one a duplicate (idempotency), timed too.
// Each run uses a fresh ledger file; prints one JSON line per run, then the medians.
// --close-through DAY closes the workspace's dates through DAY first (docs/periods.md), so the
// closed-period guard is in place and checks every row imported (a day before the dataset's rows).
//   node bench/import.mjs [--transactions N] [--existing E] [--batch B] [--runs R] [--dir DIR] [--close-through DAY]
//   (defaults: 100000, 0, N, 3, a new folder in the system's temp directory)
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

const { values } = parseArgs({
  options: {
    transactions: { type: 'string' },
    existing: { type: 'string' },
    batch: { type: 'string' },
    runs: { type: 'string' },
    dir: { type: 'string' },
    'close-through': { type: 'string' },
  },
});
const n = Number(values.transactions ?? 100_000);
const existing = Number(values.existing ?? 0);
const batch = Number(values.batch ?? n);
const runs = Number(values.runs ?? 3);
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'txa-import-bench-'));
process.on('exit', () => values.dir === undefined && rmSync(dir, { recursive: true, force: true }));

const spec = ledgerSpec(existing + n);
const all = [...generateRecords(spec)];
const older = all.slice(0, existing);
const rows = all.slice(existing);

/** Imports `records` in batches; returns the wall and CPU (user + system) seconds taken and the rows imported. */
function timedImport(engine, records, size) {
  let imported = 0;
  const t = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let i = 0; i < records.length; i += size) {
    imported += importRecords(engine, spec.workspace.id, records.slice(i, i + size), { format: 'fixture' }).imported;
  }
  const { user, system } = process.cpuUsage(cpu);
  return { seconds: Number(process.hrtime.bigint() - t) / 1e9, cpuSeconds: (user + system) / 1e6, imported };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
process.stderr.write(`load before: ${load()}\n`);
const results = [];
for (let run = 1; run <= runs; run++) {
  const path = join(dir, `import-bench-${run}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const engine = Engine.open(path);
  try {
    ensureDataset(engine, datasetHeader(spec));
    if (existing > 0) timedImport(engine, older, 20_000);
    if (values['close-through']) {
      const { closePeriod } = await import('../dist/engine/periods.js');
      await closePeriod(engine, spec.workspace.id, { through: values['close-through'] });
    }
    const first = timedImport(engine, rows, batch);
    const again = timedImport(engine, rows, batch);
    if (first.imported !== n || again.imported !== 0) throw new Error(`imported ${first.imported} then ${again.imported} of ${n}`);
    const result = {
      run,
      transactions: n,
      existing,
      batch,
      ...(values['close-through'] && { closed_through: values['close-through'] }),
      import_tx_per_s: Math.round(n / first.seconds),
      import_tx_per_cpu_s: Math.round(n / first.cpuSeconds),
      reimport_tx_per_s: Math.round(n / again.seconds),
      reimport_tx_per_cpu_s: Math.round(n / again.cpuSeconds),
    };
    results.push(result);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    engine.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  }
}
const median = (key) => results.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
const keys = ['import_tx_per_s', 'import_tx_per_cpu_s', 'reimport_tx_per_s', 'reimport_tx_per_cpu_s'];
process.stdout.write(`${JSON.stringify({ median: Object.fromEntries(keys.map((k) => [k, median(k)])), load_after: load() })}\n`);

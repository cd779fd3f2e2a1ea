// The UK and Canadian tax reports (docs/jurisdictions.md) over the whole ledger against the plain
// CSV export of the same ledger (issue 22: each ≤ 2× the CSV export's time, peak RSS < 250 MB; the
// 30-day look-ahead of both must not make them quadratic: run it at 100k and at 1M and compare).
// Each export runs in a child process of its own (its peak RSS is its own), the kinds interleaved
// run by run; medians and the ratios to the CSV export are printed with the load average, of wall
// time (the target) and of CPU time. The reports are asked in USD (`currency`), the ledger's own,
// so no exchange rates are needed: the rules' cost is the same in any currency.
//   node bench/jurisdictions.mjs [LEDGER] [RUNS]    (default bench/data/ledger-100k.db, 3 runs)
// A ledger of bench/make-ledger.sh; run on a copy (the exports are recorded in it).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const BODIES = {
  csv: { format: 'csv' },
  // The US tax report of the same ledger, for reference (not a target here).
  us: { format: 'csv', report_type: 'tax' },
  uk: { format: 'csv', report_type: 'tax', options: { jurisdiction: 'uk', currency: 'USD' } },
  ca: { format: 'csv', report_type: 'tax', options: { jurisdiction: 'ca', currency: 'USD' } },
};

if (process.argv[2] === '--one') {
  const [, , , path, kind] = process.argv;
  const { Engine } = await import('../dist/engine/engine.js');
  const { createExport } = await import('../dist/engine/exports.js');
  const engine = Engine.open(path);
  const t0 = process.hrtime.bigint();
  const rec = await createExport(engine, 'ws_bench', BODIES[kind]);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (rec.status !== 'completed') throw new Error(`${kind}: ${rec.status} ${JSON.stringify(rec.error)}`);
  const { file_name: fileName } = engine.db.prepare('SELECT file_name FROM exports WHERE id = ?').get(rec.id);
  rmSync(join(engine.dir('exports'), fileName), { force: true });
  engine.close();
  const usage = process.resourceUsage();
  console.log(
    JSON.stringify({
      seconds,
      cpu: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
      rss_mb: usage.maxRSS / 1024,
      bytes: rec.file_size,
      rows: rec.transaction_count,
    }),
  );
  process.exit(0);
}

const ledger = process.argv[2] ?? 'bench/data/ledger-100k.db';
const runs = Number(process.argv[3] ?? 3);
const KINDS = Object.keys(BODIES);
const results = Object.fromEntries(KINDS.map((k) => [k, []]));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`node bench/jurisdictions.mjs ${ledger} ${runs}   load before: ${load()}`);
for (let r = 0; r < runs; r++) {
  for (const kind of KINDS) {
    const out = JSON.parse(execFileSync(process.execPath, [self, '--one', ledger, kind], { encoding: 'utf8' }).trim().split('\n').pop());
    results[kind].push(out);
    console.log(
      `  run ${r + 1} ${kind.padEnd(4)} ${out.seconds.toFixed(2)} s  cpu ${out.cpu.toFixed(2)} s  peak RSS ${out.rss_mb.toFixed(0)} MB  ${out.bytes} bytes`,
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results.csv.map((x) => x.seconds));
const baseCpu = median(results.csv.map((x) => x.cpu));
console.log(`rows: ${results.csv[0].rows}`);
for (const kind of KINDS) {
  const s = median(results[kind].map((x) => x.seconds));
  const cpu = median(results[kind].map((x) => x.cpu));
  const rss = Math.max(...results[kind].map((x) => x.rss_mb));
  const verdict = kind === 'csv' || kind === 'us' ? '' : `  ${s / base <= 2 && rss < 250 ? 'ok' : 'MISSED'} (target ≤ 2.00×, < 250 MB)`;
  console.log(
    `${kind.padEnd(4)} median ${s.toFixed(2)} s  ratio ${(s / base).toFixed(2)}×  cpu ${cpu.toFixed(2)} s  cpu ratio ${(cpu / baseCpu).toFixed(2)}×  peak RSS ${rss.toFixed(0)} MB${verdict}`,
  );
}
console.log(`load after: ${load()}`);

// The timing shared by the benches that compare report exports with the plain CSV export of the
// same ledger (bench/forms.mjs, bench/jurisdictions.mjs): each export runs in a child process of
// its own (`SCRIPT --one LEDGER KIND`, so its peak RSS is its own), the kinds interleaved run by
// run; medians and the ratios to the first kind (the CSV export) are printed with the load
// average, of wall time (the target: ≤ 2×, peak RSS < 250 MB) and of CPU time (user + system, all
// threads: steadier on a shared machine). Run on a copy of a ledger: the exports are recorded in it.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The child's part: makes one export of `body` on the ledger at `path`, prints its figures as one JSON line and exits. */
export async function measureExport(path, body) {
  const { Engine } = await import('../dist/engine/engine.js');
  const { createExport } = await import('../dist/engine/exports.js');
  const engine = Engine.open(path);
  const t0 = process.hrtime.bigint();
  const rec = await createExport(engine, 'ws_bench', body);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (rec.status !== 'completed') throw new Error(`${JSON.stringify(body)}: ${rec.status} ${JSON.stringify(rec.error)}`);
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

/**
 * The parent's part: `runs` rounds of every kind of `kinds` (the first the CSV export, the
 * reference), each a child `node SCRIPT --one LEDGER KIND`; `untargeted` kinds are printed for
 * reference without a verdict.
 */
export function compareExports({ script, command, ledger, runs, kinds, untargeted = [] }) {
  const width = Math.max(...kinds.map((k) => k.length));
  const results = Object.fromEntries(kinds.map((k) => [k, []]));
  console.log(`${command} ${ledger} ${runs}   load before: ${load()}`);
  for (let r = 0; r < runs; r++) {
    for (const kind of kinds) {
      const out = JSON.parse(execFileSync(process.execPath, [script, '--one', ledger, kind], { encoding: 'utf8' }).trim().split('\n').pop());
      results[kind].push(out);
      console.log(
        `  run ${r + 1} ${kind.padEnd(width)} ${out.seconds.toFixed(2)} s  cpu ${out.cpu.toFixed(2)} s  peak RSS ${out.rss_mb.toFixed(0)} MB  ${out.bytes} bytes`,
      );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [reference] = kinds;
  const base = median(results[reference].map((x) => x.seconds));
  const baseCpu = median(results[reference].map((x) => x.cpu));
  console.log(`rows: ${results[reference][0].rows}`);
  for (const kind of kinds) {
    const s = median(results[kind].map((x) => x.seconds));
    const cpu = median(results[kind].map((x) => x.cpu));
    const rss = Math.max(...results[kind].map((x) => x.rss_mb));
    const verdict = kind === reference || untargeted.includes(kind) ? '' : `  ${s / base <= 2 && rss < 250 ? 'ok' : 'MISSED'} (target ≤ 2.00×, < 250 MB)`;
    console.log(
      `${kind.padEnd(width)} median ${s.toFixed(2)} s  ratio ${(s / base).toFixed(2)}×  cpu ${cpu.toFixed(2)} s  cpu ratio ${(cpu / baseCpu).toFixed(2)}×  peak RSS ${rss.toFixed(0)} MB${verdict}`,
    );
  }
  console.log(`load after: ${load()}`);
}

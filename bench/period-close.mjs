// `txa period close` against the CSV export of the same ledger (issue 20: a close ≤ the CSV
// export's time), builds A and B interleaved in one run. Each round, per build: a fresh copy of
// the ledger (a close is recorded in it), `txa period close --through DAY --json` as a user runs
// it (bin/txa), then `txa export create --format csv` on the same copy (the reference). Wall, CPU
// (user + system, all threads) and peak RSS of each child come from /usr/bin/time; medians and
// the close / export ratios are printed with the load average before and after.
//   node bench/period-close.mjs LEDGER [ROUNDS] [THROUGH] [A_DIR] [B_DIR]
// A_DIR, B_DIR: worktrees with `npm run build` done (default: this one alone). The copies go to
// $TMPDIR (2× the ledger's size at a time) and are removed. REOPENED=1: before the clock, each copy
// is closed through THROUGH and reopened, so the timed close is a second one over the same rows
// (what a close costs once the rows' hashes are kept, docs/periods.md "Digests"). FLOOR=1: each
// round also times the tax CSV export (`--report-type tax`) on the same copy: the close's floor,
// as a close digests that very text from the same tax ledger run (plus two more reports' texts).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [ledger, roundsArg, throughArg, ...dirs] = process.argv.slice(2);
if (!ledger) throw new Error('usage: node bench/period-close.mjs LEDGER [ROUNDS] [THROUGH] [A_DIR] [B_DIR]');
const rounds = Number(roundsArg ?? 2);
const through = throughArg ?? '2026-10-31';
const builds = (dirs.length ? dirs : [here]).map((d, i) => ({ name: String.fromCharCode(65 + i), dir: resolve(d) }));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Runs `bin/txa ARGS` of `dir` under /usr/bin/time (its line is the last of stderr): wall, CPU and peak RSS. */
function run(dir, args) {
  const res = execFileSync(
    '/bin/sh',
    ['-c', `/usr/bin/time -f "TIME %e %U %S %M" "$@" 2>&1 >/dev/null | tail -1`, 'sh', process.execPath, join(dir, 'bin/txa'), ...args],
    {
      encoding: 'utf8',
    },
  );
  const m = /TIME (\S+) (\S+) (\S+) (\S+)/.exec(res);
  if (!m) throw new Error(`txa ${args.join(' ')} failed: ${res}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rss: Number(m[4]) / 1024 };
}

const results = Object.fromEntries(builds.map((b) => [b.name, { close: [], csv: [], tax: [] }]));
console.log(
  `${process.env.REOPENED === '1' ? 'REOPENED=1 ' : ''}node bench/period-close.mjs ${ledger} ${rounds} ${through}   builds: ${builds.map((b) => `${b.name}=${b.dir}`).join(' ')}`,
);
console.log(`load before: ${load()}`);
const tmp = mkdtempSync(join(tmpdir(), 'txa-close-bench-'));
try {
  for (let r = 1; r <= rounds; r++) {
    for (const b of builds) {
      const copy = join(tmp, `ledger-${b.name}.db`);
      copyFileSync(ledger, copy);
      // The first open migrates an older ledger: done before the clock starts.
      run(b.dir, ['--db', copy, '-w', 'ws_bench', 'period', 'list', '--json']);
      if (process.env.REOPENED === '1') {
        run(b.dir, ['--db', copy, '-w', 'ws_bench', 'period', 'close', '--through', through, '--json']);
        run(b.dir, ['--db', copy, '-w', 'ws_bench', 'period', 'reopen', '--through', through, '--reason', 'bench', '--json']);
      }
      const close = run(b.dir, ['--db', copy, '-w', 'ws_bench', 'period', 'close', '--through', through, '--json']);
      const csv = run(b.dir, ['--db', copy, '-w', 'ws_bench', 'export', 'create', '--format', 'csv', '--out', join(tmp, 'export.csv'), '--json']);
      results[b.name].close.push(close);
      results[b.name].csv.push(csv);
      const tax =
        process.env.FLOOR === '1'
          ? run(b.dir, [
              '--db',
              copy,
              '-w',
              'ws_bench',
              'export',
              'create',
              '--format',
              'csv',
              '--report-type',
              'tax',
              '--out',
              join(tmp, 'export.csv'),
              '--json',
            ])
          : null;
      if (tax) results[b.name].tax.push(tax);
      const f = (x) => `${x.wall.toFixed(2)} s wall, ${x.cpu.toFixed(2)} s CPU, ${x.rss.toFixed(0)} MB`;
      console.log(`  round ${r} ${b.name}: close ${f(close)} | CSV export ${f(csv)}${tax ? ` | tax CSV export ${f(tax)}` : ''} | load ${load()}`);
      for (const f of [copy, `${copy}-wal`, `${copy}-shm`, join(tmp, 'export.csv')]) rmSync(f, { force: true });
      rmSync(`${copy}.files`, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const b of builds) {
  const { close, csv, tax } = results[b.name];
  const [cw, cc, ew, ec] = [median(close.map((x) => x.wall)), median(close.map((x) => x.cpu)), median(csv.map((x) => x.wall)), median(csv.map((x) => x.cpu))];
  console.log(
    `${b.name}: close median ${cw.toFixed(2)} s wall / ${cc.toFixed(2)} s CPU; CSV export ${ew.toFixed(2)} s / ${ec.toFixed(2)} s; ratio ${(cw / ew).toFixed(2)}× wall, ${(cc / ec).toFixed(2)}× CPU; peak RSS ${Math.max(...close.map((x) => x.rss)).toFixed(0)} MB  ${cw <= ew ? 'ok' : 'MISSED'} (target ≤ 1.00×)`,
  );
  if (tax.length > 0) {
    const [tw, tc] = [median(tax.map((x) => x.wall)), median(tax.map((x) => x.cpu))];
    console.log(
      `${b.name}: floor, the tax CSV export median ${tw.toFixed(2)} s wall / ${tc.toFixed(2)} s CPU: ${(tw / ew).toFixed(2)}× the CSV export's wall, ${(tc / ec).toFixed(2)}× CPU; the close ${(cw / tw).toFixed(2)}× / ${(cc / tc).toFixed(2)}× the tax CSV export`,
    );
  }
}
console.log(`load after: ${load()}`);

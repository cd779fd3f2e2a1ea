// Exchange file import speed and peak memory (issue 21: ≥ 0.8× bench/import-floor.mjs rows/s for
// 100k rows; a 200 MB exchange CSV in < 250 MB RSS). Writes Kraken ledgers CSVs of each size with
// gen-kraken.mjs, then per round and size imports the file with each build (A, B, …: checkouts
// whose dist/ is built), interleaved, each into a fresh ledger holding one workspace and one
// Kraken account, under /usr/bin/time -v. Prints per build and size the median wall time, rows/s
// (imported transactions per second of the import command, start-up included), rows per
// CPU-second (user + system, steadier on a loaded machine) and peak RSS.
//   node bench/exchange-import.mjs [--sizes 100000,2000000] [--rounds 3] [--dir /tmp/x] NAME=CHECKOUT…
//   e.g. node bench/exchange-import.mjs A=/work/main B=.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const sizes = option('--sizes', '100000,2000000').split(',').map(Number);
const rounds = Number(option('--rounds', '3'));
const dir = option('--dir', join(tmpdir(), 'txa-exchange-import'));
const builds = args.map((a) => {
  const [name, checkout] = a.split('=');
  return { name, bin: join(resolve(checkout), 'bin', 'txa') };
});
if (builds.length === 0) throw new Error('usage: node bench/exchange-import.mjs [--sizes N,M] [--rounds R] NAME=CHECKOUT…');
mkdirSync(dir, { recursive: true });
const here = dirname(fileURLToPath(import.meta.url));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const files = new Map();
for (const n of sizes) {
  const file = join(dir, `kraken-${n}.csv`);
  if (!existsSync(file)) execFileSync(process.execPath, [join(here, 'gen-kraken.mjs'), String(n), file]);
  files.set(n, file);
}

const txa = (bin, db, ...rest) => execFileSync(bin, ['--db', db, ...rest], { encoding: 'utf8' });

/** One import into a fresh ledger: wall seconds, peak RSS (MB) and the summary. */
function importOnce(build, n) {
  const db = join(dir, `${build.name}.db`);
  for (const s of ['', '-wal', '-shm']) rmSync(db + s, { force: true });
  const ws = JSON.parse(txa(build.bin, db, 'workspace', 'create', 'Bench', '--json')).data.id;
  const wallet = JSON.parse(txa(build.bin, db, '-w', ws, 'wallet', 'add', '--exchange', 'kraken', '--label', 'Kraken', '--json')).data.id;
  const start = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-v', build.bin, '--db', db, '-w', ws, 'import', files.get(n), '--wallet-id', wallet, '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (run.status !== 0) throw new Error(`${build.name} ${n}: exit ${run.status}\n${run.stderr.slice(-2000)}`);
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1]) / 1024;
  const cpu = Number(/User time \(seconds\): ([\d.]+)/.exec(run.stderr)?.[1]) + Number(/System time \(seconds\): ([\d.]+)/.exec(run.stderr)?.[1]);
  const summary = JSON.parse(run.stdout).data;
  for (const s of ['', '-wal', '-shm']) rmSync(db + s, { force: true });
  return { seconds, cpu, rss, imported: summary.imported };
}

process.stdout.write(`load before: ${load()}\n`);
const results = [];
for (let r = 0; r < rounds; r++) {
  for (const n of sizes) {
    for (const build of builds) {
      const one = importOnce(build, n);
      results.push({ build: build.name, n, ...one });
      process.stderr.write(
        `round ${r + 1} ${build.name} ${n} lines: ${one.imported} rows ${one.seconds.toFixed(2)} s ${Math.round(one.imported / one.seconds)} rows/s, ${Math.round(one.imported / one.cpu)} rows/CPU-s, ${one.rss.toFixed(0)} MB; load ${load()}\n`,
      );
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const n of sizes) {
  const mb = (statSync(files.get(n)).size / 1e6).toFixed(1);
  for (const build of builds) {
    const mine = results.filter((x) => x.build === build.name && x.n === n);
    const seconds = median(mine.map((x) => x.seconds));
    const cpu = median(mine.map((x) => x.cpu));
    process.stdout.write(
      `${build.name} ${n} lines (${mb} MB): ${mine[0].imported} rows, median ${seconds.toFixed(2)} s, ${Math.round(mine[0].imported / seconds)} rows/s, ${Math.round(mine[0].imported / cpu)} rows/CPU-s, peak RSS max ${Math.max(...mine.map((x) => x.rss)).toFixed(0)} MB\n`,
    );
  }
}
process.stdout.write(`load after: ${load()}\n`);

// Runs one reliability suite (test/reliability/) with more cases than CI, through vitest, and
// prints its figures: one JSON line per suite, then whether it passed. Used by fuzz-http.mjs,
// fuzz-cli.mjs and faults.mjs; needs a build (`npm run build`).
//   CASES=N SEED=S node bench/<script>.mjs      (the test's own output goes to stderr)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export function runSuite(testFile, defaultCases, extraEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'txa-fuzz-bench-'));
  const report = join(dir, 'figures.jsonl');
  const env = { ...process.env, TXA_FUZZ_CASES: process.env.CASES ?? String(defaultCases), TXA_FUZZ_REPORT: report, ...extraEnv };
  if (process.env.SEED) env.TXA_FUZZ_SEED = process.env.SEED;
  const started = Date.now();
  const r = spawnSync(join(root, 'node_modules/.bin/vitest'), ['run', testFile], { cwd: root, env, stdio: ['ignore', 2, 2] });
  const seconds = Math.round((Date.now() - started) / 1000);
  let figures = '';
  try {
    figures = readFileSync(report, 'utf8');
  } catch {
    // the suite failed before reporting
  }
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(figures);
  process.stdout.write(`${JSON.stringify({ file: testFile, passed: r.status === 0, seconds })}\n`);
  process.exitCode = r.status ?? 1;
}

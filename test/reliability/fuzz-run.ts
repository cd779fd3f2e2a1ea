/**
 * What the reliability suites share: how many cases to run and from which seed (the CI defaults,
 * or TXA_FUZZ_CASES / TXA_FUZZ_SEED from the bench scripts), a PRNG per case so one failing case
 * reproduces alone (TXA_FUZZ_ONLY=<case>), and the figures each suite reports
 * (TXA_FUZZ_REPORT=<file>: one JSON line per suite, read by bench/fuzz-*.mjs).
 */
import { appendFileSync } from 'node:fs';
import { Rng, seedFrom } from '../../src/fixtures/prng.js';

export interface FuzzRun {
  seed: number;
  cases: number;
  /** The case numbers to run: all of them, or only TXA_FUZZ_ONLY. */
  indexes: number[];
  /** The PRNG of one case: the same for the same seed and case number. */
  rng: (index: number) => Rng;
}

export function fuzzRun(suite: string, defaultCases: number): FuzzRun {
  const seed = Number(process.env.TXA_FUZZ_SEED ?? 20_251_125);
  const cases = Number(process.env.TXA_FUZZ_CASES ?? defaultCases);
  const only = process.env.TXA_FUZZ_ONLY;
  const indexes = only === undefined ? Array.from({ length: cases }, (_, i) => i) : only.split(',').map(Number);
  return { seed, cases, indexes, rng: (i) => new Rng(seedFrom(`${suite}:${seed}:${i}`)) };
}

/** What must never reach a user: stack frames, source paths, SQL engine text. */
export const INTERNALS = /\bat [\w.<>$]+ \(|\bat (file|node):|node:internal|\/(src|dist|node_modules)\/|\.[cm]?[jt]s:\d+|SQLITE_|\bsqlite/i;

/** A broken rule: which case, what was done, what went wrong. */
export interface Violation {
  case: number;
  input: string;
  problem: string;
}

/** Figures of a suite run, for docs/reliability.md and the bench scripts. */
export function reportFigures(suite: string, figures: Record<string, unknown>): void {
  const file = process.env.TXA_FUZZ_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ suite, ...figures })}\n`);
}

/** A violation list readable in a failed assertion: at most `max`, with how many more there were. */
export function summarize(violations: Violation[], max = 20): string[] {
  const shown = violations.slice(0, max).map((v) => `case ${v.case}: ${v.problem} — ${v.input.slice(0, 300)}`);
  return violations.length > max ? [...shown, `… and ${violations.length - max} more`] : shown;
}

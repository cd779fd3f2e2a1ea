/**
 * "Nothing stored or changed": every table's row count and a digest of its rows, read straight
 * from the ledger file, so a refused command can be held to leaving the ledger as it found it.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';

export type Snapshot = Record<string, { rows: number; digest: string }>;

/** Each table's count and a digest of its rows in rowid order; `skip` names tables a refusal may touch (a sync's attempt record). */
export function snapshot(db: string, skip: string[] = []): Snapshot {
  const raw = new Database(db, { readonly: true });
  try {
    const tables = raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    const out: Snapshot = {};
    for (const t of tables) {
      if (skip.includes(t)) continue;
      const rows = raw.prepare(`SELECT * FROM "${t}"`).raw().all();
      const h = createHash('sha256');
      for (const r of rows) h.update(JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? v.toString('hex') : v)));
      out[t] = { rows: rows.length, digest: h.digest('hex').slice(0, 16) };
    }
    return out;
  } finally {
    raw.close();
  }
}

/** The row count of one table. */
export function count(db: string, table: string): number {
  const raw = new Database(db, { readonly: true });
  try {
    return (raw.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number) ?? 0;
  } finally {
    raw.close();
  }
}

/** The values of `names` in process.env now; calling the answer puts them back (unset stays unset). */
export function envSaved(...names: string[]): () => void {
  const saved = names.map((n) => [n, process.env[n]] as const);
  return () => {
    for (const [n, v] of saved) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
  };
}

/** A command run in process (test/helpers/in-process.ts). */
export interface CliRun {
  exitCode: number;
  stderr: string;
  stdout: string;
}

/**
 * Runs a command that must be refused, with `--json`: its exit code and the API error body it
 * printed, after checking that stdout is empty and that the ledger `db` is unchanged (but for the
 * tables in `skip`).
 */
export async function refusedIn(db: string, run: () => Promise<CliRun>, skip: string[] = []) {
  const before = snapshot(db, skip);
  const r = await run();
  expect(r.stdout).toBe('');
  expect(snapshot(db, skip)).toEqual(before);
  return { exit: r.exitCode, error: JSON.parse(r.stderr).error as { code: string; field?: string; message: string; details?: unknown; errors?: unknown } };
}

/** Writes `text` to `name` in `dir`: its path. */
export function fileIn(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

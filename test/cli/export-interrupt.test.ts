/**
 * An export job run by the CLI and cut off: each catchable signal ends it cleanly (record
 * `failed` with INTERRUPTED, partial file removed, exit 128 + the signal's number); SIGKILL
 * leaves it to the next command, which fails it; `txa export cancel` stops a running one. Each
 * case runs the built `bin/txa` on its own copy of a free workspace's ledger (one export at a
 * time), and catches the job while it runs: the process is stopped (SIGSTOP) once its partial
 * file exists, so the signal or the cancel lands mid-job whatever the machine's speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { sandbox, BIN, type Sandbox } from '../helpers/cli.js';
import { tempLedger, addWallets, addMany } from '../exports/seed.js';

let seeded: string;
let ws: string;
const dirs: string[] = [];

beforeAll(() => {
  const s = tempLedger('free');
  addMany(s.engine, s.ws, addWallets(s.engine, s.ws, ['Main', 'Cold']), 1000);
  s.engine.close();
  seeded = s.path;
  ws = s.ws;
  dirs.push(s.dir);
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A sandbox on a fresh copy of the seeded ledger. */
function fresh(): Sandbox & { exportsDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'txa-int-'));
  dirs.push(dir);
  const ledger = join(dir, 'ledger.db');
  copyFileSync(seeded, ledger);
  const sb = sandbox({ TXA_DB: ledger, TXA_WORKSPACE: ws });
  dirs.push(sb.dir);
  return { ...sb, exportsDir: join(dir, 'ledger.db.files', 'exports') };
}

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/**
 * Starts `txa export create ARGS` and stops it (SIGSTOP) once its job has a partial file. (Wrapped:
 * an async function returning the subprocess, a thenable, would wait for it to end.)
 */
async function startStopped(sb: ReturnType<typeof fresh>, args: string[]): Promise<{ child: ResultPromise }> {
  const child = execa(BIN, ['export', 'create', ...args], { env: sb.env, cwd: sb.dir, reject: false, stdin: 'ignore' });
  for (;;) {
    if (files(sb.exportsDir).some((f) => f.endsWith('.tmp'))) break;
    if (child.exitCode !== null) throw new Error(`the export ended before it was caught: ${(await child).stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill('SIGSTOP');
  return { child };
}

const AUDIT = ['--format', 'pdf', '--report-type', 'audit', '--out', 'a.pdf'];

describe('a CLI export cut off by a signal', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s: the job ends failed (INTERRUPTED), its partial file removed, exit %i; the workspace exports again',
    async (signal, code) => {
      const sb = fresh();
      const { child } = await startStopped(sb, AUDIT);
      child.kill(signal);
      child.kill('SIGCONT');
      const r = await child;
      expect(r.exitCode).toBe(code);
      expect(String(r.stderr)).toMatch(new RegExp(`^error: INTERRUPTED: interrupted by ${signal}`, 'm'));
      const [rec] = (await sb.json(['export', 'list'])).data;
      expect(rec).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
      expect(files(sb.exportsDir)).toEqual([]);
      expect(readdirSync(sb.dir).filter((f) => f.includes('a.pdf'))).toEqual([]);
      const next = await sb.txa(['export', 'create', '--format', 'csv', '--out', 'b.csv']);
      expect(next.stderr).toBe('');
      expect(next.exitCode).toBe(0);
    },
    60_000,
  );

  it('SIGKILL: the next command finds the job gone and fails it; the next export of the free workspace runs', async () => {
    const sb = fresh();
    const { child } = await startStopped(sb, AUDIT);
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    const next = await sb.txa(['export', 'create', '--format', 'csv', '--out', 'b.csv']);
    expect(next.stderr).toBe('');
    expect(next.exitCode).toBe(0);
    const list = (await sb.json(['export', 'list'])).data;
    expect(list.map((e: { status: string }) => e.status)).toEqual(['completed', 'failed']);
    expect(list[1].error.code).toBe('INTERRUPTED');
    expect(list[1].error.message).toMatch(/txa command process running it \(pid \d+ on .+\) ended/);
    expect(files(sb.exportsDir)).toEqual([`${list[0].id}.csv`]);
  }, 60_000);

  it('a webhook job killed before its call is failed by the next read too (not left queued for a server)', async () => {
    const sb = fresh();
    const { child } = await startStopped(sb, ['--format', 'pdf', '--report-type', 'detailed', '--webhook-url', 'http://127.0.0.1:9/never']);
    child.kill('SIGKILL');
    await child;
    const [rec] = (await sb.json(['export', 'list'])).data;
    expect(rec).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
    expect(files(sb.exportsDir)).toEqual([]);
  }, 60_000);
});

describe('txa export cancel', () => {
  it('stops a running CLI job: failed with EXPORT_CANCELLED, no file; the running command exits 1 saying so', async () => {
    const sb = fresh();
    const { child } = await startStopped(sb, ['--format', 'pdf', '--report-type', 'detailed', '--out', 'c.pdf']);
    const [running] = (await sb.json(['export', 'list'])).data;
    // The stopped process is alive: reading the list does not take its job.
    expect(running.status).toBe('processing');
    const cancelled = await sb.json(['export', 'cancel', running.id]);
    expect(cancelled.data).toMatchObject({ id: running.id, status: 'failed', error: { code: 'EXPORT_CANCELLED' } });
    child.kill('SIGCONT');
    const r = await child;
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toMatch(/^error: EXPORT_CANCELLED: /m);
    expect(files(sb.exportsDir)).toEqual([]);
    expect(existsSync(join(sb.dir, 'c.pdf'))).toBe(false);
    expect((await sb.json(['export', 'status', running.id])).data).toMatchObject({ status: 'failed', error: { code: 'EXPORT_CANCELLED' } });

    // Ended exports cannot be cancelled; unknown ids are not found.
    const again = await sb.txa(['export', 'cancel', running.id]);
    expect([again.exitCode, again.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: EXPORT_NOT_CANCELLABLE: export \S+ cannot be cancelled: it has already failed \(EXPORT_CANCELLED\)/),
    ]);
    const done = await sb.json(['export', 'create', '--format', 'csv', '--out', 'd.csv']);
    const finished = await sb.txa(['export', 'cancel', done.data.id, '--json']);
    expect(finished.exitCode).toBe(1);
    expect(JSON.parse(finished.stderr).error.code).toBe('EXPORT_NOT_CANCELLABLE');
    const missing = await sb.txa(['export', 'cancel', 'exp_nope']);
    expect([missing.exitCode, missing.stderr]).toEqual([1, expect.stringMatching(/^error: EXPORT_NOT_FOUND: /)]);
  }, 60_000);
});

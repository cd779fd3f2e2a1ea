/**
 * `txa schedules create --email` on a ledger with no SMTP server configured: the schedule is made
 * (serve or run-due may run where TXA_SMTP_URL is set) and a warning tells the person its runs
 * fail until then; with --json stderr stays clean.
 */
import { describe, expect, it } from 'vitest';
import * as create from '../../../src/cli/commands/schedules/create.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

const { db, workspace } = tempLedger((engine, ws) => engine.db.prepare("UPDATE workspaces SET tier = 'pro' WHERE id = ?").run(ws));
const base = { name: 'Monthly', every: 'monthly', format: 'csv' };

describe('schedules create --email without TXA_SMTP_URL', () => {
  it.each([
    ['unset', undefined, true],
    ['set', 'smtp://127.0.0.1:2525', false],
  ])('TXA_SMTP_URL %s: created, warned only when unset', async (_what, url, warned) => {
    const saved = process.env.TXA_SMTP_URL;
    if (url === undefined) delete process.env.TXA_SMTP_URL;
    else process.env.TXA_SMTP_URL = url;
    try {
      const r = await runInProcess('txa schedules create', create.run, { ...base, email: 'books@example.com' }, { db, workspace });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('books@example.com');
      expect(r.stderr.includes('warning: no SMTP server is configured (TXA_SMTP_URL)')).toBe(warned);
      // --json: the body only, stderr clean for a script.
      const j = await runInProcess('txa schedules create', create.run, { ...base, name: 'J', email: 'books@example.com' }, { db, workspace, json: true });
      expect([j.exitCode, j.stderr]).toEqual([0, '']);
    } finally {
      if (saved === undefined) delete process.env.TXA_SMTP_URL;
      else process.env.TXA_SMTP_URL = saved;
    }
  });
});

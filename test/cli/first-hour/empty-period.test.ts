/**
 * Issue 24, item 1: an empty period does not pass CI. `check` finds a period without rows
 * (`empty_period`) and a wallet whose last sync is before the period's end (`stale_sync`); an
 * export of no rows says so on stderr, `--strict` refuses it, and the tax PDF's empty-state line is
 * whole (read back with pdftotext).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { run as check } from '../../../src/cli/commands/check/check.js';
import { run as create } from '../../../src/cli/commands/export/create.js';
import { runInProcess } from '../../helpers/in-process.js';
import { importOneRow, tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

let l: TempLedger;
let globals: { db: string; workspace: string };

beforeAll(() => {
  // One row on 2025-03-01, imported (so synced) with the clock at 2025-04-10.
  process.env.TXA_NOW = '2025-04-10T00:00:00Z';
  l = tempLedger((engine, ws, dir) => {
    importOneRow(engine, ws, dir, { fiat_value: 3000 });
  });
  globals = { db: l.db, workspace: l.workspace };
});
afterAll(() => {
  delete process.env.TXA_NOW;
  delete process.env.TXA_CONFIG_DIR;
});

const kinds = (stdout: string) => JSON.parse(stdout).data.findings.map((f: { kind: string; count: number }) => [f.kind, f.count]);

describe('check: empty_period and stale_sync', () => {
  it('a month without rows is a finding, exit 1, its example naming the days', async () => {
    const r = await runInProcess('txa check', check, { allow: [], period: '2025-02' }, { ...globals, json: true });
    expect(r.exitCode).toBe(1);
    const body = JSON.parse(r.stdout);
    expect(body.data.findings).toEqual([{ kind: 'empty_period', count: 1, examples: [{ start_date: '2025-02-01', end_date: '2025-02-28' }] }]);
    const human = await runInProcess('txa check', check, { allow: [], period: '2025-02' }, globals);
    expect(human.stdout).toContain('no rows from 2025-02-01 to 2025-02-28');
    expect(human.stderr).toBe('check: 1 empty_period\n');
  });

  it("a wallet last synced before the period's end is stale_sync; a month with its rows and a sync after it is clean of both", async () => {
    process.env.TXA_NOW = '2025-06-02T00:00:00Z';
    try {
      const may = await runInProcess('txa check', check, { allow: ['untagged'], period: '2025-05' }, { ...globals, json: true });
      expect(kinds(may.stdout)).toEqual([
        ['empty_period', 1],
        ['stale_sync', 1],
      ]);
      const stale = JSON.parse(may.stdout).data.findings[1].examples[0];
      expect(stale).toMatchObject({ chain: 'ethereum', last_synced: '2025-04-10T00:00:00Z', period_end: '2025-06-01T00:00:00Z' });
      const march = await runInProcess('txa check', check, { allow: ['untagged'], period: '2025-03' }, { ...globals, json: true });
      expect([march.exitCode, kinds(march.stdout)]).toEqual([0, []]);
    } finally {
      process.env.TXA_NOW = '2025-04-10T00:00:00Z';
    }
  });
});

describe('export of an empty period', () => {
  it('says so on stderr, and --strict refuses it (UNRESOLVED_FINDINGS, exit 1, nothing written)', async () => {
    const out = join(l.dir, 'feb.csv');
    const r = await runInProcess('txa export create', create, { format: 'csv', period: '2025-02', out }, globals);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^warning: no rows match the period and filters: exp_\w+ is empty/m);
    const strict = await runInProcess('txa export create', create, { format: 'csv', period: '2025-02', strict: true, out: join(l.dir, 'strict.csv') }, globals);
    expect(strict.exitCode).toBe(1);
    expect(strict.stderr).toMatch(/^error: UNRESOLVED_FINDINGS \(options.strict\): .*1 empty_period/);
  });

  it("the tax PDF's empty-state line is whole", async () => {
    const out = join(l.dir, 'feb.pdf');
    const r = await runInProcess('txa export create', create, { format: 'pdf', reportType: 'tax', period: '2025-02', out }, globals);
    expect(r.exitCode).toBe(0);
    const text = execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' });
    expect(text).toContain('No disposals in the period');
  });
});

/** `txa period close|reopen|list` run in process, on a ledger with one row dated 2025-03-01 (docs/periods.md). */
import { beforeAll, describe, expect, it } from 'vitest';
import { run as close } from '../../../src/cli/commands/period/close.js';
import { run as reopen } from '../../../src/cli/commands/period/reopen.js';
import { run as list } from '../../../src/cli/commands/period/list.js';
import { runInProcess } from '../../helpers/in-process.js';
import { importOneRow, tempLedger } from '../../helpers/in-process-ledger.js';

let globals: { db: string; workspace: string };

beforeAll(() => {
  const l = tempLedger((engine, ws, dir) => {
    importOneRow(engine, ws, dir, { fiat_value: 3000 });
  });
  globals = { db: l.db, workspace: l.workspace };
});

describe('txa period, in process', () => {
  it('list with no closed period: nothing on stdout, a notice naming period close', async () => {
    const l = await runInProcess('txa period list', list, {}, globals);
    expect(l.exitCode).toBe(0);
    expect(l.stdout).toBe('');
    expect(l.stderr).toMatch(/^no closed periods \(txa period close DATE/);
  });

  it('close --json prints the period; in a pipe, list prints its row; a second close is PERIOD_CLOSED (through), exit 1', async () => {
    const r = await runInProcess('txa period close', close, { through: '2025-03-31', note: 'Q1 filed' }, { ...globals, json: true });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).data).toMatchObject({ through: '2025-03-31', status: 'closed', note: 'Q1 filed', closed_by: 'cli' });
    const l = await runInProcess('txa period list', list, {}, globals);
    expect(l.stdout).toMatch(/^2025-03-31\tclosed\t\S+\tcli\tQ1 filed\n$/);
    const again = await runInProcess('txa period close', close, { through: '2025-03-31' }, globals);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/^error: PERIOD_CLOSED \(through\): 2025-03-31 is closed already$/m);
  });

  it('reopen without --reason is a usage error naming --reason, exit 2; with it the period is reopened', async () => {
    const r = await runInProcess('txa period reopen', reopen, { through: '2025-03-31' }, globals);
    expect([r.exitCode, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^error: USAGE_ERROR \(reason\): --reason is required/m);
    const ok = await runInProcess('txa period reopen', reopen, { through: '2025-03-31', reason: 'late invoice' }, { ...globals, json: true });
    expect(JSON.parse(ok.stdout).data).toMatchObject({ status: 'reopened', reason: 'late invoice', reopened_by: 'cli' });
  });

  it('a --through that is not a day is INVALID_FIELD (through), exit 1', async () => {
    const r = await runInProcess('txa period close', close, { through: '2025-02-29' }, globals);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: INVALID_FIELD \(through\): through must be a day/m);
  });
});

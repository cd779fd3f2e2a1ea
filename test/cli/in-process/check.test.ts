/** `txa check` run in process (test/helpers/in-process.ts), on a ledger with one untagged, priced inflow. */
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/commands/check/check.js';
import { runInProcess } from '../../helpers/in-process.js';
import { importOneRow, tempLedger } from '../../helpers/in-process-ledger.js';

let globals: { db: string; workspace: string };

beforeAll(() => {
  const l = tempLedger((engine, ws, dir) => {
    importOneRow(engine, ws, dir, { fiat_value: 3000 });
  });
  globals = { db: l.db, workspace: l.workspace };
});

describe('txa check, in process', () => {
  it('--json: the report with its one finding, exit 1', async () => {
    const r = await runInProcess('txa check', run, { allow: [] }, { ...globals, json: true });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, data: { clean: false, findings: [{ kind: 'untagged', count: 1 }] } });
    expect(r.stderr).toBe('');
  });

  it('in a pipe: a CHECK<TAB>FOUND<TAB>STATUS row per kind; allowed, it is clean and exits 0', async () => {
    const r = await runInProcess('txa check', run, { allow: ['untagged'] }, globals);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['untagged\t\tallowed', 'unpriced\t0\tok']);
    expect(r.stderr).toBe('check: clean\n');
  });

  it('an unknown kind in --allow is USAGE_ERROR (allow), exit 2', async () => {
    const r = await runInProcess('txa check', run, { allow: ['untagged,nope'] }, globals);
    expect([r.exitCode, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^error: USAGE_ERROR \(allow\): --allow takes kinds of findings: .*; got 'nope'$/m);
  });
});

/** `txa demo` run in process (test/helpers/in-process.ts): the demo ledger loaded, its tour and reports. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../../src/cli/commands/demo/demo.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

let l: TempLedger;

beforeAll(() => {
  l = tempLedger();
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa demo, in process', () => {
  it('--json: the workspaces loaded and the report files written', async () => {
    const dir = join(l.dir, 'reports');
    const r = await runInProcess('txa demo', run, { dir }, { db: l.db, json: true });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    const { data } = JSON.parse(r.stdout);
    expect(data).toMatchObject({
      workspace_id: 'ws_demo_acme',
      imported: 2780,
      workspaces: [{ id: 'ws_demo_acme', imported: 2400 }, { id: 'ws_demo_personal' }],
    });
    expect(data.files.map((f: { path: string }) => f.path)).toEqual(['transactions.csv', 'transactions.json', 'summary.pdf'].map((f) => join(dir, f)));
    expect(existsSync(join(dir, 'summary.pdf'))).toBe(true);
  }, 60_000);

  it('in a pipe, a second time: nothing imported, the tour as tab-separated rows and the commands to try', async () => {
    const r = await runInProcess('txa demo', run, { dir: join(l.dir, 'again') }, { db: l.db });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('Reused workspace ws_demo_acme "Acme Treasury" (pro): imported 0 transactions (2400 already in the ledger).');
    expect(r.stdout).toMatch(/^ws_demo_acme\tAcme Treasury\t/m);
    expect(r.stdout).toMatch(/^ {2}txa tx list --period \d{4}-\d{2}$/m);
  }, 60_000);

  it('a remote backend is LOCAL_ONLY, exit 2', async () => {
    const r = await runInProcess('txa demo', run, { dir: join(l.dir, 'none') }, { baseUrl: 'http://127.0.0.1:9' });
    expect([r.exitCode, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^error: LOCAL_ONLY: txa demo works on the local ledger only/);
  });
});

/** `txa export create|status|list|download|cancel` run in process (test/helpers/in-process.ts), on a ledger with one row. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as create } from '../../../src/cli/commands/export/create.js';
import { run as download } from '../../../src/cli/commands/export/download.js';
import { run as list } from '../../../src/cli/commands/export/list.js';
import { run as status } from '../../../src/cli/commands/export/status.js';
import { runInProcess } from '../../helpers/in-process.js';
import { importOneRow, tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

let l: TempLedger;
let globals: { db: string; workspace: string };
let id: string;

beforeAll(() => {
  l = tempLedger((engine, ws, dir) => {
    importOneRow(engine, ws, dir, { amount: '1.5', fiat_value: 4500 });
  });
  globals = { db: l.db, workspace: l.workspace };
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa export, in process', () => {
  it('create --json: a download is written to --out and its record printed', async () => {
    const out = join(l.dir, 'rows.csv');
    const r = await runInProcess('txa export create', create, { format: 'csv', out }, { ...globals, json: true });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    const { data } = JSON.parse(r.stdout);
    expect(data).toMatchObject({ status: 'completed', format: 'csv', transaction_count: 1, delivery: { method: 'download' } });
    expect(readFileSync(out, 'utf8')).toContain('0x' + 'a'.repeat(64));
    id = data.id;
  });

  it('in a pipe: status one key<TAB>value line per field, list one row per export, download the path', async () => {
    const shown = await runInProcess('txa export status', status, { id }, globals);
    expect(shown.stdout).toMatch(new RegExp(`^id\\t${id}\\nstatus\\tcompleted\\nformat\\tcsv\\n`));
    const listed = await runInProcess('txa export list', list, {}, globals);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\tcompleted\\tcsv\\tdownload\\t1\\t`));
    const again = join(l.dir, 'again.csv');
    const fetched = await runInProcess('txa export download', download, { id, out: again }, globals);
    expect([fetched.stdout, fetched.stderr]).toEqual([`${again}\n`, expect.stringMatching(/^wrote \d+ bytes\n$/)]);
  });

  it('an unknown id is EXPORT_NOT_FOUND, exit 1; --delivery download with --email is USAGE_ERROR, exit 2', async () => {
    const missing = await runInProcess('txa export status', status, { id: 'exp_nope' }, globals);
    expect([missing.exitCode, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toMatch(/^error: EXPORT_NOT_FOUND: /);
    const both = await runInProcess('txa export create', create, { format: 'csv', delivery: 'download', email: 'a@example.com' }, globals);
    expect([both.exitCode, both.stderr]).toEqual([2, 'error: USAGE_ERROR (delivery): --delivery download cannot be combined with --email\n']);
  });
});

/** `txa rates import` and `txa rates list` run in process (test/helpers/in-process.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as importRates } from '../../../src/cli/commands/rates/import.js';
import { run as listRates } from '../../../src/cli/commands/rates/list.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

let l: TempLedger;

beforeAll(() => {
  l = tempLedger();
  writeFileSync(join(l.dir, 'good.csv'), 'date,currency,rate\n2024-03-05,EUR,0.9\n2024-03-05,GBP,0.8\n');
  writeFileSync(join(l.dir, 'bad.csv'), 'date,currency,rate\n2024-02-30,EUR,1\n');
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa rates, in process', () => {
  it('import --json prints the count; list --json the page of rates', async () => {
    const imported = await runInProcess('txa rates import', importRates, { file: join(l.dir, 'good.csv') }, { db: l.db, workspace: l.workspace, json: true });
    expect([imported.exitCode, JSON.parse(imported.stdout)]).toEqual([0, { success: true, data: { imported: 2 } }]);
    const listed = await runInProcess('txa rates list', listRates, { currency: 'EUR' }, { db: l.db, workspace: l.workspace, json: true });
    expect(JSON.parse(listed.stdout)).toMatchObject({ success: true, data: [{ date: '2024-03-05', currency: 'EUR', rate: '0.9' }] });
  });

  it('list in a pipe: one DATE<TAB>CURRENCY<TAB>RATE line per rate', async () => {
    const r = await runInProcess('txa rates list', listRates, {}, { db: l.db, workspace: l.workspace });
    expect(r.stdout).toBe('2024-03-05\tEUR\t0.9\n2024-03-05\tGBP\t0.8\n');
  });

  it('a bad file: the error line, then its bad rows on stderr, exit 1', async () => {
    const r = await runInProcess('txa rates import', importRates, { file: join(l.dir, 'bad.csv') }, { db: l.db, workspace: l.workspace });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')).toEqual([
      expect.stringMatching(/^error: IMPORT_FAILED \(date\): /),
      "  line 2, date: '2024-02-30' is not a date YYYY-MM-DD",
      '',
    ]);
  });
});

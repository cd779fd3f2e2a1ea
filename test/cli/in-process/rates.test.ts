/** `txa rates import` and `txa rates list` run in process (test/helpers/in-process.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as fillRates } from '../../../src/cli/commands/rates/fill.js';
import { run as importRates } from '../../../src/cli/commands/rates/import.js';
import { run as listRates } from '../../../src/cli/commands/rates/list.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';
import { fxReplay } from '../../helpers/fx-replay.js';

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
    expect(JSON.parse(listed.stdout)).toMatchObject({
      success: true,
      data: [{ date: '2024-03-05', currency: 'EUR', rate: '0.9', source: 'import', published_day: null }],
    });
  });

  it('list in a pipe: one DATE<TAB>CURRENCY<TAB>RATE<TAB>SOURCE line per rate', async () => {
    const r = await runInProcess('txa rates list', listRates, {}, { db: l.db, workspace: l.workspace });
    expect(r.stdout).toBe('2024-03-05\tEUR\t0.9\timport\n2024-03-05\tGBP\t0.8\timport\n');
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

describe('txa rates fill, in process', () => {
  // The ECB's files: 2024-03-15, then 2024-03-28 (Thursday), Good Friday to Easter Monday closed, 2024-04-02.
  const days = {
    '2024-03-15': { USD: '1.0900', GBP: '0.85500' },
    '2024-03-28': { USD: '1.0811', GBP: '0.85510' },
    '2024-04-02': { USD: '1.0787', GBP: '0.85660' },
  };

  it('--json prints the counts; the human form a line on stdout and the earlier days on stderr; a bad TXA_FX_URL is a usage error', async () => {
    const fx = await fxReplay(days, '2024-01-01');
    process.env.TXA_NOW = '2024-04-03T09:00:00Z';
    process.env.TXA_FX_URL = fx.url;
    try {
      const opts = { from: '2024-03-28', currency: 'GBP' };
      const json = await runInProcess('txa rates fill', fillRates, opts, { db: l.db, workspace: l.workspace, json: true });
      expect([json.exitCode, JSON.parse(json.stdout)]).toEqual([
        0,
        {
          success: true,
          data: { from: '2024-03-28', to: '2024-04-02', base: 'USD', currencies: ['GBP'], rates: 6, earlier_day: 4, kept: 0, unfilled: 0, requests: 1 },
        },
      ]);
      expect(fx.calls).toEqual(['/eurofxref-hist-90d.xml']);
      const human = await runInProcess('txa rates fill', fillRates, opts, { db: l.db, workspace: l.workspace });
      expect(human.stdout).toBe('stored 6 rates USD→GBP, 2024-03-28 to 2024-04-02 (0 requests to the ECB)\n');
      expect(human.stderr).toBe(
        "4 days without an ECB publication (weekends, TARGET holidays) take the last earlier published day's rate, e.g. 2024-03-29 GBP uses 2024-03-28, 2024-03-30 GBP uses 2024-03-28, 2024-03-31 GBP uses 2024-03-28\n",
      );
      const listed = await runInProcess('txa rates list', listRates, { currency: 'GBP' }, { db: l.db, workspace: l.workspace });
      expect(listed.stdout.split('\n').slice(0, 3)).toEqual([
        '2024-03-05\tGBP\t0.8\timport',
        '2024-03-28\tGBP\t0.790953658311\tecb',
        '2024-03-29\tGBP\t0.790953658311\tecb 2024-03-28',
      ]);
      process.env.TXA_FX_URL = 'ftp://example.com';
      const bad = await runInProcess('txa rates fill', fillRates, opts, { db: l.db, workspace: l.workspace });
      expect([bad.exitCode, bad.stderr.split('\n')[0]]).toEqual([
        2,
        "error: USAGE_ERROR (TXA_FX_URL): TXA_FX_URL must be an http(s) URL, got 'ftp://example.com'",
      ]);
    } finally {
      delete process.env.TXA_NOW;
      delete process.env.TXA_FX_URL;
      await fx.close();
    }
  });
});

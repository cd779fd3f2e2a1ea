/**
 * Issue 22's "Bad input" (docs/jurisdictions.md, docs/prices.md "Exchange rates"): each hostile
 * input run as the user runs it (the CLI in process, `--json`), held to its code and field, a
 * message naming the field, line or value, and a ledger left exactly as it was.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as exportCreate from '../../src/cli/commands/export/create.js';
import * as ratesFill from '../../src/cli/commands/rates/fill.js';
import * as ratesImport from '../../src/cli/commands/rates/import.js';
import * as wsCreate from '../../src/cli/commands/workspace/create.js';
import * as wsUpdate from '../../src/cli/commands/workspace/update.js';
import { type FxReplay, fxReplay } from '../helpers/fx-replay.js';
import { importFile } from '../../src/engine/imports.js';
import { importOneRow, tempLedger, WALLET_ADDRESS } from '../helpers/in-process-ledger.js';
import { runInProcess } from '../helpers/in-process.js';
import { type CliRun, envSaved, fileIn, refusedIn } from './snapshot.js';

let db: string;
let workspace: string;
let dir: string;
let fx: FxReplay;
const restoreEnv = envSaved('TXA_NOW', 'TXA_FX_URL', 'TXA_FX_TIMEOUT');

const json = () => ({ db, workspace, json: true });
const file = (name: string, text: string) => fileIn(dir, name, text);
const refused = (run: () => Promise<CliRun>, skip: string[] = []) => refusedIn(db, run, skip);
const exporting = (o: Partial<exportCreate.CreateOptions>) =>
  runInProcess(
    'txa export create',
    exportCreate.run,
    { format: 'csv', reportType: 'tax', out: join(dir, 'out.csv'), ...o } as exportCreate.CreateOptions,
    json(),
  );

beforeAll(async () => {
  ({ db, workspace, dir } = tempLedger((engine, ws, d) => {
    const wallet = importOneRow(engine, ws, d, { fiat_value: 3000 });
    // A sale of half of it, so the tax report has a disposal to value.
    const sale = {
      tx_hash: `0x${'b'.repeat(64)}`,
      timestamp: '2025-06-02T10:00:00Z',
      amount: '0.5',
      token: { symbol: 'ETH', address: null, decimals: 18 },
      direction: 'outflow',
      from_address: WALLET_ADDRESS,
      to_address: `0x${'3'.repeat(40)}`,
      fiat_value: 2000,
    };
    writeFileSync(join(d, 'sale.ndjson'), `${JSON.stringify(sale)}\n`);
    importFile(engine, ws, join(d, 'sale.ndjson'), { walletId: wallet });
  }));
  fx = await fxReplay({ '2024-03-28': { USD: '1.0811', GBP: '0.85510' } }, '2024-01-01');
  process.env.TXA_FX_URL = fx.url;
  process.env.TXA_NOW = '2024-04-03T09:00:00Z';
});
afterAll(async () => {
  restoreEnv();
  await fx?.close();
});

describe('issue 22: jurisdiction, method, period', () => {
  it('an unknown jurisdiction (workspace update, workspace create, an export what-if): INVALID_FIELD (jurisdiction) listing the known ones, exit 1', async () => {
    for (const run of [
      () => runInProcess('txa workspace update', wsUpdate.run, { id: workspace, jurisdiction: 'fr' }, json()),
      () => runInProcess('txa workspace create', wsCreate.run, { name: 'France', tier: 'free', currency: 'EUR', jurisdiction: 'fr' }, json()),
      () => exporting({ jurisdiction: 'fr', period: '2025' }),
    ]) {
      const { exit, error } = await refused(run);
      expect([exit, error.code, error.field, error.message]).toEqual([
        1,
        'INVALID_FIELD',
        'jurisdiction',
        "jurisdiction must be one of us, uk, ca, de, au, got 'fr'",
      ]);
    }
  });

  it('a method the jurisdiction does not allow (hifo under uk, lifo under ca): INVALID_FIELD (cost_basis) saying what it allows, no export', async () => {
    const uk = await refused(() => exporting({ jurisdiction: 'uk', costBasis: 'hifo', period: '2025' }));
    expect([uk.exit, uk.error.code, uk.error.field]).toEqual([1, 'INVALID_FIELD', 'cost_basis']);
    expect(uk.error.message).toMatch(/^cost_basis hifo is not allowed under jurisdiction uk: .*Section 104 pool at average cost/);
    const ca = await refused(() => exporting({ jurisdiction: 'ca', costBasis: 'lifo', period: '2025' }));
    expect([ca.exit, ca.error.code, ca.error.field]).toEqual([1, 'INVALID_FIELD', 'cost_basis']);
    expect(ca.error.message).toMatch(/^cost_basis lifo is not allowed under jurisdiction ca/);
  });

  it('a period that is not a year: USAGE_ERROR (period) naming the forms and the value, exit 2, before any export', async () => {
    for (const period of ['25', 'twenty24', '2024-13', '2024-Q5']) {
      const { exit, error } = await refused(() => exporting({ period }));
      expect([period, exit, error.code, error.field]).toEqual([period, 2, 'USAGE_ERROR', 'period']);
      expect(error.message).toContain(`got '${period}'`);
    }
  });
});

describe('issue 22: exchange rates', () => {
  const importing = (name: string, text: string) => runInProcess('txa rates import', ratesImport.run, { file: file(name, text) }, json());

  it('a rates file with a row missing its day, or a rate that is no number: IMPORT_FAILED naming each line and field, none imported', async () => {
    const { exit, error } = await refused(() => importing('rates.csv', 'date,currency,rate\n2024-03-05,EUR,0.9\n,EUR,0.9\n2024-03-06,GBP,abc\n'));
    expect([exit, error.code]).toEqual([1, 'IMPORT_FAILED']);
    expect(error.errors).toEqual([expect.objectContaining({ line: 3, field: 'date' }), expect.objectContaining({ line: 4, field: 'rate' })]);
    expect(JSON.stringify(error.errors)).toContain("'abc'");
  });

  it('an FX server answering HTML: SYNC_FAILED (TXA_FX_URL) quoting the page, nothing stored', async () => {
    fx.faults.push({ status: 200, body: '<!DOCTYPE html><html><body>ECB</body></html>', contentType: 'text/html' });
    const { exit, error } = await refused(() =>
      runInProcess('txa rates fill', ratesFill.run, { from: '2020-01-01', to: '2020-01-31', currency: 'GBP' }, json()),
    );
    expect([exit, error.code, error.field]).toEqual([1, 'SYNC_FAILED', 'TXA_FX_URL']);
    expect(error.message).toMatch(/^the ECB's eurofxref-hist\.zip is not usable: the server answered an HTML page \("<!DOCTYPE html>.*nothing was stored$/);
  });

  it('an FX server that never finishes its answer: SYNC_FAILED after its tries, saying the timeout, nothing stored', async () => {
    process.env.TXA_FX_TIMEOUT = '0.2';
    process.env.TXA_FX_RPS = '50';
    try {
      fx.faults.push(...Array.from({ length: 6 }, () => ({ endless: true as const })));
      const { exit, error } = await refused(() =>
        runInProcess('txa rates fill', ratesFill.run, { from: '2020-01-01', to: '2020-01-31', currency: 'GBP' }, json()),
      );
      expect([exit, error.code]).toEqual([1, 'SYNC_FAILED']);
      expect(error.message).toMatch(/no complete answer within 0\.2 s \(after 6 tries\)/);
    } finally {
      delete process.env.TXA_FX_TIMEOUT;
      delete process.env.TXA_FX_RPS;
    }
  });

  it('a report in GBP that needs a rate the ledger lacks: MISSING_RATE naming the day and the currency, no export stored', async () => {
    const { exit, error } = await refused(() => exporting({ currency: 'GBP', period: '2025' }));
    expect([exit, error.code, error.field, error.message]).toEqual([1, 'MISSING_RATE', 'options.currency', 'no USD→GBP rate for 2025-03-01']);
  });
});

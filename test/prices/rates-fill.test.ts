/**
 * `rates fill` from the ECB's reference-rate files (docs/prices.md "Exchange rates"), against a
 * replay of its real file formats on 127.0.0.1 (test/helpers/fx-replay.ts), and the UK tax report
 * in GBP converted with the rates it stored. The replay publishes ten years of working days
 * (2014-01-02 to 2024-04-05) without weekends, 1 January, 1 May, 25–26 December, and Good Friday
 * and Easter Monday 2024 (29 March, 1 April). By hand (docs/prices.md has the same worked example):
 *  - 2024-03-28: USD 1.0811, GBP 0.85510 per euro → USD→GBP 0.85510 ÷ 1.0811 = 0.7909536583109…
 *    → 0.790953658311 (12 places, half to even); USD→EUR 1 ÷ 1.0811 = 0.924983812783.
 *  - 2024-03-29 (Good Friday) to 2024-04-01 (Easter Monday): the rate of 2024-03-28.
 *  - 2024-04-02: USD 1.0787, GBP 0.85660 → 0.794104014091. Other days: USD 1.1000, GBP 0.85000
 *    → 0.772727272727.
 * The UK ledger (base USD): buys 2 ETH on 2024-03-28 for $1,081.10 → £855.10 (108,110 × 0.79095…
 * = 85,509.99999994… cents); sells 1 on Saturday 2024-03-30 for $1,000.00 → £790.95 (79,095.37
 * cents), cost half the pool £427.55, gain £363.40; sells 1 on 2024-04-04 for $1,100.00 → £850.00
 * (84,999.99999997), cost £427.55, gain £422.45.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { amountKey } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { importRates, listRates } from '../../src/engine/rates.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { createWorkspace, updateWorkspace } from '../../src/engine/workspaces.js';
import { EcbClient } from '../../src/prices/ecb.js';
import { crossRate, fillRates, type RatesFillOptions } from '../../src/prices/fx-fill.js';
import { fxSettings } from '../../src/prices/settings.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { txaRejectionOf } from '../helpers/errors.js';
import { fxReplay, histCsv, type FxReplay } from '../helpers/fx-replay.js';
import { tempLedger } from '../exports/seed.js';

const HAND: Record<string, Record<string, string>> = {
  '2024-03-28': { USD: '1.0811', GBP: '0.85510', CAD: '1.4683', AUD: '1.6622' },
  '2024-04-02': { USD: '1.0787', GBP: '0.85660', CAD: '1.4641', AUD: '1.6582' },
};
const CLOSED = ['2024-03-29', '2024-04-01'];

function publications(): Record<string, Record<string, string>> {
  const days: Record<string, Record<string, string>> = {};
  for (let t = Date.UTC(2014, 0, 2); t <= Date.UTC(2024, 3, 5); t += 86_400_000) {
    const d = new Date(t);
    const day = d.toISOString().slice(0, 10);
    const md = day.slice(5);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6 || ['01-01', '05-01', '12-25', '12-26'].includes(md) || CLOSED.includes(day)) continue;
    // ISK had no quote until 2018, as the ECB's file shows with N/A.
    days[day] = HAND[day] ?? { USD: '1.1000', JPY: '150.00', GBP: '0.85000', ...(day >= '2018-01-01' && { ISK: '140.00' }), AUD: '1.6000', CAD: '1.4500' };
  }
  return days;
}

let fx: FxReplay;
const { dir, engine, ws } = tempLedger('enterprise');
// The replay builds its files on this test's thread: a deadline short enough for the endless answer's test only there.
const settings = (timeout: string) => fxSettings({ TXA_FX_URL: fx.url, TXA_FX_RPS: '50', TXA_FX_TIMEOUT: timeout });
const fill = (opts: RatesFillOptions, workspace = ws, timeout = '30') => fillRates(engine, workspace, opts, new EcbClient(settings(timeout)));
const rateOf = (currency: string, day: string, workspace = ws) => listRates(engine, workspace, currency).find((r) => r.date === day);

beforeAll(async () => {
  fx = await fxReplay(publications(), '2024-01-08');
});
afterAll(async () => {
  delete process.env.TXA_NOW;
  await fx.close();
});

let n = 0;
function add(wallet: string, day: string, direction: 'inflow' | 'outflow', amount: string, cents: number): void {
  const hash = `0x${(++n).toString(16).padStart(64, '0')}`;
  const row: NewTransaction = {
    id: transactionId(wallet, hash, '0'),
    workspace_id: ws,
    wallet_id: wallet,
    chain: 'ethereum',
    tx_hash: hash,
    transfer_key: '0',
    from_address: `0x${'9'.repeat(40)}`,
    to_address: `0x${'8'.repeat(40)}`,
    token_symbol: 'ETH',
    token_address: null,
    token_decimals: 18,
    amount,
    amount_key: amountKey(amount),
    fiat_cents: cents,
    direction,
    type: 'transfer',
    ts: Date.parse(`${day}T12:00:00Z`) / 1000,
    notes: null,
  };
  engine.write(() => insertTransactions(engine.db, [row], 0));
}

const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000 + 1;

describe('rates fill', () => {
  test('crossRate rounds half to even at 12 places', () => {
    expect(crossRate('0.85510', '1.0811')).toBe('0.790953658311');
    expect(crossRate('1', '1.0811')).toBe('0.924983812783');
    expect(crossRate('1.0811', '0.85510')).toBe('1.2642965735');
    expect(crossRate('0.85000', '1.1000')).toBe('0.772727272727');
  });

  test('ten years from one download of the historical file; a second fill sends nothing', async () => {
    process.env.TXA_NOW = '2024-04-03T10:00:00Z';
    const { result, notices } = await fill({ from: '2014-04-01', currencies: ['gbp', 'EUR'] });
    expect(fx.calls).toEqual(['/eurofxref-hist.zip']);
    const days = daysBetween('2014-04-01', '2024-04-02');
    const published = Object.keys(fx.days).filter((d) => d >= '2014-04-01' && d <= '2024-04-02').length;
    expect(result).toEqual({
      from: '2014-04-01',
      to: '2024-04-02',
      base: 'USD',
      currencies: ['GBP', 'EUR'],
      rates: 2 * days,
      earlier_day: 2 * (days - published),
      kept: 0,
      unfilled: 0,
      requests: 1,
    });
    expect(notices[0]).toMatch(/^\d+ days without an ECB publication \(weekends, TARGET holidays\) take the last earlier published day's rate, e\.g\. /);
    expect(rateOf('GBP', '2024-03-28')).toEqual({ date: '2024-03-28', currency: 'GBP', rate: '0.790953658311', source: 'ecb', published_day: '2024-03-28' });
    expect(rateOf('EUR', '2024-03-28')!.rate).toBe('0.924983812783');
    for (const d of ['2024-03-29', '2024-03-30', '2024-03-31', '2024-04-01'])
      expect(rateOf('GBP', d)).toMatchObject({ rate: '0.790953658311', published_day: '2024-03-28' });
    expect(rateOf('GBP', '2024-04-02')).toMatchObject({ rate: '0.794104014091', published_day: '2024-04-02' });
    // Not complete yet: today (2024-04-03) is not asked for by default.
    expect(rateOf('GBP', '2024-04-03')).toBeUndefined();

    const again = await fill({ from: '2014-04-01', currencies: ['GBP', 'EUR'] });
    expect(fx.calls).toHaveLength(1);
    expect(again.result).toMatchObject({ requests: 0, rates: 2 * days });
    // The historical file holds every publication: the cache needs no day before its first either.
    expect((await fill({ from: '2014-01-02', to: '2014-01-10', currencies: ['GBP'] })).result).toMatchObject({ requests: 0, rates: 9, unfilled: 0 });
    expect(fx.calls).toHaveLength(1);
  });

  test('a UK report in GBP converts with them, names the days that took an earlier rate, and fails on a day it has no rate for', async () => {
    updateWorkspace(engine, ws, { jurisdiction: 'uk' });
    const main = engine.write(() => insertNewWallet(engine, ws, { address: `0x${'1'.repeat(40)}`, chain: 'ethereum', label: 'Main' }).id);
    add(main, '2024-03-28', 'inflow', '2', 108110);
    add(main, '2024-03-30', 'outflow', '1', 100000);
    add(main, '2024-04-04', 'outflow', '1', 110000);
    const body = { format: 'csv', report_type: 'tax', filters: { tax_year: 2023 } };
    const missing = await txaRejectionOf(createExport(engine, ws, body));
    expect([missing.code, missing.field, missing.message]).toEqual(['MISSING_RATE', 'options.currency', 'no USD→GBP rate for 2024-04-04']);
    expect(missing.hint).toMatch(/txa rates fill --currency GBP/);

    // Two days later the 90-day file brings the new days: one request, not the historical file.
    process.env.TXA_NOW = '2024-04-06T08:00:00Z';
    const { result } = await fill({ currencies: ['GBP'] });
    expect(fx.calls.slice(1)).toEqual(['/eurofxref-hist-90d.xml']);
    expect(result).toMatchObject({ from: '2024-03-28', to: '2024-04-05', requests: 1, unfilled: 0 });
    expect(rateOf('GBP', '2024-04-04')).toMatchObject({ rate: '0.772727272727', published_day: '2024-04-04' });

    const rec = await createExport(engine, ws, body);
    const rows = parse(readFileSync(downloadExport(engine, ws, rec.id, join(dir, 'uk.csv')).path, 'utf8')) as string[][];
    expect(rows.slice(0, 3)).toEqual([
      ['date_sold', 'asset', 'quantity', 'proceeds', 'allowable_cost', 'gain_loss', 'matched', 'note'],
      ['2024-03-30', 'ETH', '1', '790.95', '427.55', '363.40', 's104', ''],
      ['2024-04-04', 'ETH', '1', '850.00', '427.55', '422.45', 's104', ''],
    ]);
    expect(rows.find((r) => r[0]!.startsWith('Note: '))?.[0]).toBe(
      "Note: 1 day has no ECB reference rate (weekends, TARGET holidays): values on it are converted USD→GBP at the last earlier published day's rate (2024-03-30 uses 2024-03-28); txa rates list shows each",
    );
    const json = await createExport(engine, ws, { ...body, format: 'json' });
    const doc = JSON.parse(readFileSync(downloadExport(engine, ws, json.id, join(dir, 'uk.json')).path, 'utf8'));
    expect(doc.notes).toEqual([{ kind: 'earlier_rate', count: 1, message: expect.stringContaining('2024-03-30 uses 2024-03-28') }]);
    expect(doc.totals).toMatchObject({ disposal_proceeds: 1640.95, allowable_costs: 855.1 });
  });

  test('an imported rate is kept; a workspace in EUR stores the published quotes as they are', async () => {
    const file = join(dir, 'rates.csv');
    writeFileSync(file, 'date,currency,rate\n2024-04-02,GBP,0.8\n');
    await importRates(engine, ws, file);
    const { result, notices } = await fill({ from: '2024-04-01', currencies: ['GBP'] });
    expect(result).toMatchObject({ rates: 4, kept: 1, requests: 0 });
    expect(notices).toContain("1 imported rate kept (txa rates import wins over the ECB's)");
    expect(rateOf('GBP', '2024-04-02')).toMatchObject({ rate: '0.8', source: 'import', published_day: null });

    const eur = createWorkspace(engine, { name: 'Berlin', currency: 'EUR' }).id;
    const filled = await fill({ from: '2024-03-28', to: '2024-04-02', currencies: ['USD', 'GBP'] }, eur);
    expect(filled.result).toMatchObject({ base: 'EUR', rates: 12, earlier_day: 8, requests: 0 });
    expect(rateOf('USD', '2024-03-31', eur)).toMatchObject({ rate: '1.0811', published_day: '2024-03-28' });
    expect(rateOf('GBP', '2024-04-02', eur)).toMatchObject({ rate: '0.8566' });
  });

  test('refuses an unknown currency, the base currency, a day after today, from after to', async () => {
    const xyz = await txaRejectionOf(fill({ from: '2010-01-01', currencies: ['XYZ'] }));
    expect([xyz.code, xyz.field]).toEqual(['INVALID_FIELD', 'currency']);
    expect(xyz.message).toMatch(/^the ECB publishes no reference rate of XYZ; it publishes AUD, CAD, GBP, ISK, JPY, USD$/);
    const usd = await txaRejectionOf(fill({ currencies: ['usd'] }));
    expect([usd.code, usd.field]).toEqual(['INVALID_FIELD', 'currency']);
    expect((await txaRejectionOf(fill({ to: '2024-04-07' }))).field).toBe('to');
    expect((await txaRejectionOf(fill({ from: '2024-04-03', to: '2024-04-02' }))).code).toBe('INVALID_DATE_RANGE');
  });
});

describe('bad answers change nothing', () => {
  const fresh = () => createWorkspace(engine, { name: `Bad ${++n}` }).id;
  const attempt = async (faults: FxReplay['faults'], timeout = '30') => {
    // A fresh ledger-wide cache is needed for a request: forget what the tests above stored.
    engine.db.exec('DELETE FROM fx_reference; DELETE FROM fx_coverage');
    const w = fresh();
    fx.faults.push(...faults);
    const err = await txaRejectionOf(fill({ from: '2020-01-01', to: '2020-01-31', currencies: ['GBP'] }, w, timeout));
    fx.faults.length = 0;
    expect(listRates(engine, w)).toEqual([]);
    expect(engine.db.prepare('SELECT count(*) FROM fx_coverage').pluck().get()).toBe(0);
    return err;
  };

  test('a 503 is tried again, as the price APIs are; the next answer is used', async () => {
    engine.db.exec('DELETE FROM fx_reference; DELETE FROM fx_coverage');
    fx.faults.push({ status: 503, body: 'busy' });
    const { result } = await fill({ from: '2020-01-01', to: '2020-01-31', currencies: ['GBP'] }, fresh());
    // 2020-01-01 (a holiday) takes the rate of 2019-12-31.
    expect(result).toMatchObject({ requests: 2, rates: 31, unfilled: 0 });
  });

  test('an HTML page answered with 200', async () => {
    const err = await attempt([{ status: 200, body: '<!DOCTYPE html><html><head><title>ECB</title></head><body>Welcome</body></html>' }]);
    expect([err.code, err.field]).toEqual(['SYNC_FAILED', 'TXA_FX_URL']);
    expect(err.message).toMatch(/^the ECB's eurofxref-hist\.zip is not usable: the server answered an HTML page \("<!DOCTYPE html><html><head>/);
  });

  test('a server that never finishes its answer: tried six times, then SYNC_FAILED', async () => {
    process.env.TXA_NOW = '2024-04-06T08:00:00Z';
    const err = await attempt(
      Array.from({ length: 6 }, () => ({ endless: true as const })),
      '0.3',
    );
    expect(err.message).toMatch(/^the ECB's eurofxref-hist\.zip failed: no complete answer within 0\.3 s \(after 6 tries\)$/);
  }, 15_000);

  test('a quote that is no number, and a line without its day, name the field and the line', async () => {
    const days = { '2020-01-03': { USD: '1.1', GBP: '0.85' }, '2020-01-02': { USD: '1.1', GBP: '0.85' } };
    const nan = await attempt([{ zipCsv: histCsv(days).replace('0.85,', 'abc,') }]);
    expect([nan.code, nan.field, nan.message]).toEqual([
      'SYNC_FAILED',
      'GBP',
      "the ECB's eurofxref-hist.csv is not usable: line 2 (2020-01-03), GBP: 'abc' is not a positive number; nothing was stored",
    ]);
    const noDay = await attempt([{ zipCsv: histCsv(days).replace('2020-01-02', '') }]);
    expect([noDay.field, noDay.message]).toEqual([
      'Date',
      "the ECB's eurofxref-hist.csv is not usable: line 3: '' is not a day YYYY-MM-DD; nothing was stored",
    ]);
  });

  test('an XML file with a rate that is no number; an HTTP 404', async () => {
    // The cache holds the historical days through 2024-04-02 only, so the 90-day file is asked for.
    engine.db.exec('DELETE FROM fx_reference; DELETE FROM fx_coverage');
    const w = fresh();
    process.env.TXA_NOW = '2024-04-03T10:00:00Z';
    await fill({ from: '2024-03-01', to: '2024-03-28', currencies: ['GBP'] }, w);
    process.env.TXA_NOW = '2024-04-06T08:00:00Z';
    fx.faults.push({
      status: 200,
      contentType: 'text/xml',
      body: "<gesmes:Envelope><Cube><Cube time='2024-04-03'><Cube currency='GBP' rate='0,8566'/></Cube></Cube></gesmes:Envelope>",
    });
    const err = await txaRejectionOf(fill({ from: '2024-04-03', to: '2024-04-05', currencies: ['GBP'] }, w));
    expect([err.code, err.field, err.message]).toEqual([
      'SYNC_FAILED',
      'GBP',
      "the ECB's eurofxref-hist-90d.xml is not usable: line 1 (2024-04-03), GBP: rate '0,8566' is not a positive number; nothing was stored",
    ]);
    expect(rateOf('GBP', '2024-04-03', w)).toBeUndefined();
    fx.faults.push({ status: 404, body: '<html><body>Not found</body></html>' });
    const missing = await txaRejectionOf(fill({ from: '2024-04-03', to: '2024-04-05', currencies: ['GBP'] }, w));
    expect([missing.code, missing.field]).toEqual(['SYNC_FAILED', 'TXA_FX_URL']);
    expect(missing.message).toMatch(/^the ECB answered HTTP 404 for http:\/\/127\.0\.0\.1:\d+\/eurofxref-hist-90d\.xml/);
  });
});

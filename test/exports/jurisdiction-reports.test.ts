/**
 * The Canadian, German and Australian tax reports (docs/jurisdictions.md) from one real ledger
 * file through the export pipeline: values stored in USD, each report in its jurisdiction's
 * currency by rates imported from a small CSV (1 USD = 1.25 CAD = 0.80 EUR = 1.50 AUD every day),
 * CSV read back with csv-parse. The ledger (ETH, two wallets), by hand in CAD:
 *  - 2024-01-10 Main buys 10 for $8,000 (C$10,000);
 *  - 2024-03-01 Main sells 4 for $2,400 (C$3,000): ACB 4,000, loss 1,000;
 *  - 2024-03-20 Second buys 2 for $1,600 (C$2,000): within 30 days, 8 held on 31 March: the
 *    least of 4, 2 and 8 is 2, so 1,000 × 2/4 = 500 is denied; loss 500; pool 8 at 6,000 + 500 + 2,000 = 8,500;
 *  - 2025-02-01 Second sells 8 for $8,000 (C$10,000): gain 1,500, taxable 750.
 * In EUR (FIFO per wallet): the March sale costs 4 × 640 = 2,560 for 1,920: loss 640; in 2025
 * Second holds only its 2 (1,280 €): 6,400 × 2/8 = 1,600, gain 320, and 6 without a cost.
 * In AUD (FIFO, one pool): tax year 2023–24 the March sale loses 3,600 − 4,800 = 1,200; tax
 * year 2024–25 the sale of 8 for 12,000 takes 6 of 10 January 2024 (7,200, held over 12 months:
 * gain 9,000 − 7,200 = 1,800) and the 2 of 20 March (2,400: gain 3,000 − 2,400 = 600); discount 900.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { importRates } from '../../src/engine/rates.js';
import { txaRejectionOf } from '../helpers/errors.js';
import { pdfText } from '../pdf/helpers.js';
import { addTxs, addWallets, tempLedger } from './seed.js';

const { dir, engine, ws } = tempLedger('enterprise');
const wallets = addWallets(engine, ws, ['Main', 'Second']);
const DAYS = ['2024-01-10', '2024-03-01', '2024-03-20', '2025-02-01'];
addTxs(engine, ws, wallets, [
  { wallet: 0, day: DAYS[0]!, amount: '10', fiat: '8000', direction: 'inflow' },
  { wallet: 0, day: DAYS[1]!, amount: '4', fiat: '2400', direction: 'outflow' },
  { wallet: 1, day: DAYS[2]!, amount: '2', fiat: '1600', direction: 'inflow' },
  { wallet: 1, day: DAYS[3]!, amount: '8', fiat: '8000', direction: 'outflow' },
]);
const rates = join(dir, 'rates.csv');
writeFileSync(rates, `date,currency,rate\n${DAYS.flatMap((d) => [`${d},CAD,1.25`, `${d},EUR,0.80`, `${d},AUD,1.50`, `${d},GBP,0.80`]).join('\n')}\n`);
await importRates(engine, ws, rates);

async function saved(body: Record<string, unknown>): Promise<string> {
  const rec = await createExport(engine, ws, body);
  expect(rec.status).toBe('completed');
  return downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.${body.format}`)).path;
}
const download = async (body: Record<string, unknown>) => readFileSync(await saved(body), 'utf8');
/** The PDF's text, its lines' runs of spaces made one. */
const pdf = async (jurisdiction: string, tax_year: number) =>
  pdfText(await saved({ format: 'pdf', report_type: 'tax', filters: { tax_year }, options: { jurisdiction } }))
    .join('\n')
    .replace(/ {2,}/g, '  ');

describe('ca', () => {
  test('tax year 2024 in CAD: the superficial loss partly denied, then the Schedule 3 totals', async () => {
    const rows = parse(await download({ format: 'csv', report_type: 'tax', filters: { tax_year: 2024 }, options: { jurisdiction: 'ca' } })) as string[][];
    expect(rows).toEqual([
      ['date_sold', 'asset', 'quantity', 'proceeds', 'acb', 'outlays', 'gain_loss', 'superficial_loss_denied', 'note'],
      ['2024-03-01', 'ETH', '4', '3000.00', '4000.00', '0.00', '-500.00', '500.00', 'superficial loss'],
      ['', '', '', '', '', '', '', '', ''],
      ['Number of dispositions', '', '', '', '', '', '1', '', ''],
      ['Proceeds of disposition', '', '', '', '', '', '3000.00', '', ''],
      ['Adjusted cost base', '', '', '', '', '', '4000.00', '', ''],
      ['Outlays and expenses', '', '', '', '', '', '0.00', '', ''],
      ['Capital gains', '', '', '', '', '', '0.00', '', ''],
      ['Capital losses (after superficial losses)', '', '', '', '', '', '500.00', '', ''],
      ['Superficial losses denied (added to the ACB)', '', '', '', '', '', '500.00', '', ''],
      ['Net capital gain (loss)', '', '', '', '', '', '-500.00', '', ''],
      ['Inclusion rate (1/2)', '', '', '', '', '', '0.5', '', ''],
      ['Taxable capital gain', '', '', '', '', '', '0.00', '', ''],
      ['Net capital loss (to carry over)', '', '', '', '', '', '500.00', '', ''],
    ]);
  });

  test('tax year 2025 as JSON: the denied loss is in the ACB of the sale', async () => {
    const doc = JSON.parse(await download({ format: 'json', report_type: 'tax', filters: { tax_year: 2025 }, options: { jurisdiction: 'ca' } }));
    expect(doc.export.filters).toEqual({ start_date: '2025-01-01', end_date: '2025-12-31' });
    expect(doc.export.options).toMatchObject({ currency: 'CAD', jurisdiction: 'ca', cost_basis: 'fifo' });
    expect(doc.lines).toEqual([
      { date_sold: '2025-02-01', asset: 'ETH', quantity: '8', proceeds: 10000, acb: 8500, outlays: 0, gain_loss: 1500, superficial_loss_denied: 0, note: null },
    ]);
    expect(doc.totals).toMatchObject({ dispositions: 1, gains: 1500, net_capital_gain: 1500, taxable_capital_gain: 750 });
  });

  test('a method Canada does not allow is refused naming what it allows', async () => {
    const err = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'tax', options: { jurisdiction: 'ca', cost_basis: 'lifo' } }));
    expect([err.code, err.field]).toEqual(['INVALID_FIELD', 'cost_basis']);
    expect(err.message).toMatch(/it allows no choice of lots: the adjusted cost base is the average cost/);
  });
});

describe('de', () => {
  test('calendar 2024 in EUR: the loss is carried; 2025 per wallet, with what the wallet lacked', async () => {
    const rows = parse(await download({ format: 'csv', report_type: 'tax', filters: { tax_year: 2024 }, options: { jurisdiction: 'de' } })) as string[][];
    expect(rows.slice(0, 2)).toEqual([
      ['type', 'asset', 'quantity', 'date_acquired', 'date_sold', 'proceeds', 'cost', 'fees', 'gain_loss', 'holding', 'wallet', 'note'],
      ['private_sale', 'ETH', '4', '2024-01-10', '2024-03-01', '1920.00', '2560.00', '0.00', '-640.00', 'one year or less', 'Main', ''],
    ]);
    const totals = Object.fromEntries(rows.slice(3).map((r) => [r[0], r[8]]));
    expect(totals).toMatchObject({
      'Private sales within one year: net gain (loss)': '-640.00',
      'Exemption limit (Freigrenze, § 23 (3) EStG) of 2024': '1000.00',
      'Private sales: taxable gain': '0.00',
      'Private sales: loss to carry (§ 23 (3) EStG)': '640.00',
    });
    const doc = JSON.parse(await download({ format: 'json', report_type: 'tax', filters: { tax_year: 2025 }, options: { jurisdiction: 'de' } }));
    expect(doc.export.options).toMatchObject({ currency: 'EUR', jurisdiction: 'de', cost_basis: 'fifo' });
    expect(doc.lines.map((l: any) => [l.date_acquired, l.quantity, l.proceeds, l.cost, l.gain_loss, l.wallet, l.note])).toEqual([
      ['2024-03-20', '2', 1600, 1280, 320, 'Second', null],
      [null, '6', 4800, null, null, 'Second', 'missing cost basis 6'],
    ]);
  });
});

describe('au', () => {
  test('the tax year 1 July – 30 June in AUD: a loss in 2023–24, a discounted gain in 2024–25', async () => {
    const y23 = JSON.parse(await download({ format: 'json', report_type: 'tax', filters: { tax_year: 2023 }, options: { jurisdiction: 'au' } }));
    expect(y23.export.filters).toEqual({ start_date: '2023-07-01', end_date: '2024-06-30' });
    expect(y23.lines.map((l: any) => [l.date_sold, l.capital_proceeds, l.cost_base, l.gain_loss])).toEqual([['2024-03-01', 3600, 4800, -1200]]);
    expect(y23.totals).toMatchObject({ losses: 1200, net_capital_gain: 0, net_capital_loss: 1200 });
    const rows = parse(await download({ format: 'csv', report_type: 'tax', filters: { tax_year: 2024 }, options: { jurisdiction: 'au' } })) as string[][];
    expect(rows.slice(0, 3)).toEqual([
      ['date_acquired', 'date_sold', 'asset', 'quantity', 'capital_proceeds', 'cost_base', 'gain_loss', 'discount_eligible', 'wallet', 'note'],
      ['2024-01-10', '2025-02-01', 'ETH', '6', '9000.00', '7200.00', '1800.00', 'yes', 'Second', ''],
      ['2024-03-20', '2025-02-01', 'ETH', '2', '3000.00', '2400.00', '600.00', 'no', 'Second', ''],
    ]);
    expect(rows.slice(4).map((r) => [r[0], r[6]])).toEqual([
      ['Total current year capital gains', '2400.00'],
      ['of which held at least 12 months (discount eligible)', '1800.00'],
      ['Capital losses', '0.00'],
      ['CGT discount (50 %)', '900.00'],
      ['Net capital gain', '1500.00'],
      ['Net capital losses carried forward to later income years', '0.00'],
    ]);
    const hifo = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'tax', options: { jurisdiction: 'au', cost_basis: 'hifo' } }));
    expect([hifo.code, hifo.field, hifo.message]).toEqual([
      'INVALID_FIELD',
      'cost_basis',
      'cost_basis hifo is not allowed under jurisdiction au: it allows fifo, specific',
    ]);
  });
});

describe('the PDF of each jurisdiction, titled and laid out for its return', () => {
  test('uk: the SA108 cryptoasset boxes (30 days: the 20 March purchase matched to the 1 March sale)', async () => {
    const text = await pdf('uk', 2023);
    expect(text).toContain('United Kingdom — Capital gains on cryptoassets — SA108');
    // 4 sold for £1,920: 2 of 20 March (£1,280) and 2 from the pool (£1,280): loss £640.
    for (const line of [
      '13.1  Number of disposals  1',
      '13.2  Disposal proceeds  1,920.00',
      '13.3  Allowable costs (including purchase price)  2,560.00',
      '13.5  Losses in the year  640.00',
    ])
      expect(text).toContain(line);
    expect(text).toMatch(/2024-03-01 +ETH +4 +1,920.00 +2,560.00 +-640.00 +30-day\+s104/);
  });

  test('ca, de and au: Schedule 3, Anlage SO, item 18', async () => {
    const ca = await pdf('ca', 2025);
    expect(ca).toContain('Canada — Capital gains — Schedule 3');
    expect(ca).toContain('Taxable capital gain  750.00');
    const de = await pdf('de', 2024);
    expect(de).toContain('Germany — Private Veräußerungsgeschäfte und sonstige Einkünfte — Anlage SO');
    expect(de).toContain('Private sales: loss to carry (§ 23 (3) EStG)  640.00');
    const au = await pdf('au', 2024);
    expect(au).toContain('Australia — Capital gains — item 18 (CGT)');
    expect(au).toContain('A  Net capital gain  1,500.00');
    expect(au).toMatch(/2024-01-10 +2025-02-01 +ETH +6 +9,000.00 +7,200.00 +1,800.00 +yes/);
  });
});

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
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { importRates } from '../../src/engine/rates.js';
import { txaRejectionOf } from '../helpers/errors.js';
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
writeFileSync(rates, `date,currency,rate\n${DAYS.flatMap((d) => [`${d},CAD,1.25`, `${d},EUR,0.80`, `${d},AUD,1.50`]).join('\n')}\n`);
await importRates(engine, ws, rates);

async function download(body: Record<string, unknown>): Promise<string> {
  const rec = await createExport(engine, ws, body);
  expect(rec.status).toBe('completed');
  return readFileSync(downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.${body.format}`)).path, 'utf8');
}

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

/**
 * The UK tax report (docs/jurisdictions.md) from a real ledger file through the export
 * pipeline, CSV read back with csv-parse. The workspace's values are in USD and its jurisdiction is
 * `uk`: the report is in GBP by its rates (1 USD = 0.5 GBP every day). The ledger is HMRC's
 * CRYPTO22255 (Melanie) with ETH on two chains for token E, then two disposals either side of the
 * tax year's end. By hand, in GBP:
 *  - 2023-01-10 pool 14,000 for £200,000; 2024-08-30 sells 4,000 for £160,000; 2024-09-11 buys 500
 *    (Arbitrum) for £17,500: cost £17,500 (30 day) + £200,000 × 3,500/14,000 = £50,000 (S104),
 *    gain £92,500; pool 10,500, £150,000 (HMRC's figures);
 *  - 2025-04-05 (still tax year 2024–25) sells 1,000 for £20,000: cost £150,000 × 1,000/10,500 =
 *    £14,285.71, gain £5,714.29; pool 9,500, £135,714.29;
 *  - 2025-04-06 (tax year 2025–26) sells 500 for £5,000: cost £135,714.29 × 500/9,500 = £7,142.86,
 *    loss £2,142.86.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { amountKey } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';
import type { Chain } from '../../src/core/types.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { importRates } from '../../src/engine/rates.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { createWorkspace, updateWorkspace } from '../../src/engine/workspaces.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { txaErrorOf, txaRejectionOf } from '../helpers/errors.js';
import { tempLedger } from './seed.js';

const { dir, engine, ws } = tempLedger('enterprise');
const main = engine.write(() => insertNewWallet(engine, ws, { address: `0x${'1'.repeat(40)}`, chain: 'ethereum', label: 'Main' }).id);
const arb = engine.write(() => insertNewWallet(engine, ws, { address: `0x${'2'.repeat(40)}`, chain: 'arbitrum', label: 'Arb' }).id);

let n = 0;
/** A row worth `usd` dollars. */
function add(wallet: string, chain: Chain, day: string, direction: 'inflow' | 'outflow', amount: string, usd: number): void {
  const hash = `0x${(++n).toString(16).padStart(64, '0')}`;
  const row: NewTransaction = {
    id: transactionId(wallet, hash, '0'),
    workspace_id: ws,
    wallet_id: wallet,
    chain,
    tx_hash: hash,
    transfer_key: '0',
    from_address: `0x${'9'.repeat(40)}`,
    to_address: `0x${'8'.repeat(40)}`,
    token_symbol: 'ETH',
    token_address: null,
    token_decimals: 18,
    amount,
    amount_key: amountKey(amount),
    fiat_cents: usd * 100,
    direction,
    type: 'transfer',
    ts: Date.parse(`${day}T12:00:00Z`) / 1000,
    notes: null,
  };
  engine.write(() => insertTransactions(engine.db, [row], 0));
}

add(main, 'ethereum', '2023-01-10', 'inflow', '14000', 400000);
add(main, 'ethereum', '2024-08-30', 'outflow', '4000', 320000);
add(arb, 'arbitrum', '2024-09-11', 'inflow', '500', 35000);
add(arb, 'arbitrum', '2025-04-05', 'outflow', '1000', 40000);
add(main, 'ethereum', '2025-04-06', 'outflow', '500', 10000);

async function download(body: Record<string, unknown>, workspace = ws): Promise<string> {
  const rec = await createExport(engine, workspace, body);
  expect(rec.status).toBe('completed');
  return readFileSync(downloadExport(engine, workspace, rec.id, join(dir, `${rec.id}.${body.format}`)).path, 'utf8');
}

describe('a uk workspace', () => {
  test('has its jurisdiction; an unknown one is refused, listing the known ones', () => {
    expect(updateWorkspace(engine, ws, { jurisdiction: 'UK' }).jurisdiction).toBe('uk');
    const err = txaErrorOf(() => createWorkspace(engine, { name: 'Paris', jurisdiction: 'fr' }));
    expect([err.code, err.field, err.message]).toEqual(['INVALID_FIELD', 'jurisdiction', "jurisdiction must be one of us, uk, ca, de, au, got 'fr'"]);
    expect(createWorkspace(engine, { name: 'Plain' }).jurisdiction).toBe('us');
  });

  test('a report that needs a rate it does not have fails naming the day', async () => {
    const err = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'tax', filters: { tax_year: 2024 } }));
    expect(err.code).toBe('MISSING_RATE');
    expect(err.message).toMatch(/no USD→GBP rate for 2024-08-30/);
  });

  test('tax year 2024 (6 April 2024 – 5 April 2025) in GBP: the lines, then the SA108 totals', async () => {
    const rates = join(dir, 'rates.csv');
    writeFileSync(
      rates,
      `date,currency,rate\n${['2023-01-10', '2024-08-30', '2024-09-11', '2025-04-05', '2025-04-06'].map((d) => `${d},GBP,0.5`).join('\n')}\n`,
    );
    await importRates(engine, ws, rates);
    const rows = parse(await download({ format: 'csv', report_type: 'tax', filters: { tax_year: 2024 } })) as string[][];
    expect(rows).toEqual([
      ['date_sold', 'asset', 'quantity', 'proceeds', 'allowable_cost', 'gain_loss', 'matched', 'note'],
      ['2024-08-30', 'ETH', '4000', '160000.00', '67500.00', '92500.00', '30-day+s104', ''],
      ['2025-04-05', 'ETH', '1000', '20000.00', '14285.71', '5714.29', 's104', ''],
      ['', '', '', '', '', '', '', ''],
      ['Number of disposals', '', '', '', '', '2', '', ''],
      ['Disposal proceeds', '', '', '', '', '180000.00', '', ''],
      ['Allowable costs (including purchase price)', '', '', '', '', '81785.71', '', ''],
      ['Gains in the year, before losses', '', '', '', '', '98214.29', '', ''],
      ['Losses in the year', '', '', '', '', '0.00', '', ''],
    ]);
  });

  test('tax year 2025 as JSON: the dates it covers, the currency and jurisdiction, a loss', async () => {
    const doc = JSON.parse(await download({ format: 'json', report_type: 'tax', filters: { tax_year: 2025 } }));
    expect(doc.export.filters).toEqual({ start_date: '2025-04-06', end_date: '2026-04-05' });
    expect(doc.export.options).toMatchObject({ currency: 'GBP', jurisdiction: 'uk', cost_basis: 'fifo' });
    expect(doc.lines).toEqual([
      { date_sold: '2025-04-06', asset: 'ETH', quantity: '500', proceeds: 5000, allowable_cost: 7142.86, gain_loss: -2142.86, matched: 's104', note: null },
    ]);
    expect(doc.totals).toEqual({ disposals: 1, disposal_proceeds: 5000, allowable_costs: 7142.86, gains: 0, losses: 2142.86 });
  });

  test('--currency still wins; the option jurisdiction us gives the US report for a what-if', async () => {
    const usd = parse(await download({ format: 'csv', report_type: 'tax', filters: { tax_year: 2024 }, options: { currency: 'USD' } })) as string[][];
    expect(usd[1]!.slice(3, 6)).toEqual(['320000.00', '135000.00', '185000.00']);
    const us = parse(
      await download({ format: 'csv', report_type: 'tax', filters: { tax_year: 2024 }, options: { jurisdiction: 'us', basis_scope: 'universal' } }),
    ) as string[][];
    // The US report, calendar 2024, in USD: FIFO from the one pool.
    expect(us[0]![0]).toBe('description');
    expect(us.filter((r) => r[2]?.startsWith('2024-')).map((r) => r[2])).toEqual(['2024-08-30']);
  });

  test('refuses a method the UK does not allow, an unknown jurisdiction', async () => {
    const hifo = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'tax', options: { cost_basis: 'hifo' } }));
    expect([hifo.code, hifo.field]).toEqual(['INVALID_FIELD', 'cost_basis']);
    expect(hifo.message).toMatch(/cost_basis hifo is not allowed under jurisdiction uk: it allows no choice of lots/);
    const xx = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'tax', options: { jurisdiction: 'xx' } }));
    expect([xx.code, xx.field, xx.message]).toEqual(['INVALID_FIELD', 'jurisdiction', "jurisdiction must be one of us, uk, ca, de, au, got 'xx'"]);
    const both = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'tax', filters: { tax_year: 2024, start_date: '2024-01-01' } }));
    expect([both.code, both.field]).toEqual(['INVALID_FIELD', 'filters.tax_year']);
  });
});

/** Currency conversion with imported daily rates (exact, half-even) and the JSON export's round trip through the importer. */
import { describe, test, expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { tempLedger, addWallets, addTxs, addMany, tag, ADDR } from './seed.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { importRates, listRates } from '../../src/engine/rates.js';
import { listTransactions } from '../../src/engine/transactions.js';
import { tagTransaction, updateTransaction } from '../../src/engine/transaction-edits.js';
import { importFile } from '../../src/engine/imports.js';
import type { Transaction } from '../../src/core/types.js';
import { txaRejectionOf } from '../helpers/errors.js';

describe('currency', () => {
  const { engine, ws, dir } = tempLedger('pro', 'USD');
  const w = addWallets(engine, ws, ['Main']);
  addTxs(engine, ws, w, [
    { wallet: 0, day: '2024-03-01', amount: '1', fiat: '100.00', direction: 'inflow' },
    { wallet: 0, day: '2024-03-01', time: '13:00:00', amount: '2', fiat: '0.05', direction: 'inflow' },
    { wallet: 0, day: '2024-03-02', amount: '3', fiat: '10.01', direction: 'outflow' },
    { wallet: 0, day: '2024-03-03', amount: '4', fiat: null, direction: 'outflow' },
  ]);
  const ratesFile = join(dir, 'rates.csv');
  writeFileSync(ratesFile, 'date,currency,rate\n2024-03-01,EUR,0.9\n2024-03-02,eur,0.92345\n2024-03-01,GBP,0.5\n');

  test('rates import (atomic) and list', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'date,currency,rate\n2024-03-05,EUR,0.9\n2024-02-30,EUR,1\n2024-03-06,EURO,1\n2024-03-07,EUR,-2\n');
    const err = await txaRejectionOf(importRates(engine, ws, bad));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.extra?.errors).toEqual([
      { line: 3, field: 'date', reason: expect.stringContaining('2024-02-30') },
      { line: 4, field: 'currency', reason: expect.stringContaining('EURO') },
      { line: 5, field: 'rate', reason: expect.stringContaining('-2') },
    ]);
    expect(listRates(engine, ws)).toEqual([]);
    expect(await importRates(engine, ws, ratesFile)).toEqual({ imported: 3 });
    expect(listRates(engine, ws, 'eur')).toEqual([
      { date: '2024-03-01', currency: 'EUR', rate: '0.9', source: 'import', published_day: null },
      { date: '2024-03-02', currency: 'EUR', rate: '0.92345', source: 'import', published_day: null },
    ]);
  });

  test('values converted with the rate of each day, rounded half-even to cents; totals are the sums of the rows', async () => {
    const rec = await createExport(engine, ws, { format: 'csv', columns: ['date', 'fiat_value', 'direction'], options: { currency: 'eur' } });
    const rows = parse(readFileSync(downloadExport(engine, ws, rec.id, join(dir, 'eur.csv')).path, 'utf8')) as string[][];
    // 100.00 × 0.9 = 90.00; 0.05 × 0.9 = 0.045 → 0.04 (half-even); 10.01 × 0.92345 = 9.2437345 → 9.24; no value stays empty
    expect(rows.slice(1, 5)).toEqual([
      ['2024-03-01', '90.00', 'inflow'],
      ['2024-03-01', '0.04', 'inflow'],
      ['2024-03-02', '9.24', 'outflow'],
      ['2024-03-03', '', 'outflow'],
    ]);
    expect(rows.slice(6).map((r) => r[1])).toEqual(['90.04', '9.24', '80.80', '4']);
  });

  test('the base currency needs no rate; a missing day is MISSING_RATE naming the first one', async () => {
    const usd = await createExport(engine, ws, { format: 'json', options: { currency: 'USD' } });
    const doc = JSON.parse(readFileSync(downloadExport(engine, ws, usd.id, join(dir, 'usd.json')).path, 'utf8'));
    expect(doc.summary).toEqual({ total_inflow: 100.05, total_outflow: 10.01, net_flow: 90.04, transaction_count: 4 });
    const err = await txaRejectionOf(createExport(engine, ws, { format: 'csv', options: { currency: 'GBP' } }));
    expect(err.code).toBe('MISSING_RATE');
    expect(err.field).toBe('options.currency');
    expect(err.message).toContain('2024-03-02');
    const chf = await txaRejectionOf(createExport(engine, ws, { format: 'csv', options: { currency: 'CHF' } }));
    expect(chf.message).toContain('2024-03-01');
    // A filter that avoids the missing day works.
    const ok = await createExport(engine, ws, { format: 'json', options: { currency: 'GBP' }, filters: { start_date: '2024-02-28', end_date: '2024-03-01' } });
    const gbp = JSON.parse(readFileSync(downloadExport(engine, ws, ok.id, join(dir, 'gbp.json')).path, 'utf8'));
    expect(gbp.transactions.map((t: Transaction) => t.fiat_value)).toEqual([50, 0.02]);
    expect(gbp.summary.total_inflow).toBe(50.02);
  });
});

describe('JSON export', () => {
  test('shape, summary, groups by id, and a streamed transactions array', async () => {
    const { engine, ws, dir } = tempLedger('pro');
    addMany(engine, ws, addWallets(engine, ws, ['A', 'B']), 120);
    const rec = await createExport(engine, ws, { format: 'json', filters: { direction: 'inflow' }, options: { group_by: 'wallet' } });
    const doc = JSON.parse(readFileSync(downloadExport(engine, ws, rec.id, join(dir, 'g.json')).path, 'utf8'));
    expect(Object.keys(doc)).toEqual(['export', 'summary', 'groups', 'transactions']);
    expect(doc.export).toMatchObject({
      id: rec.id,
      format: 'json',
      created_at: rec.created_at,
      filters: { direction: 'inflow' },
      options: { group_by: 'wallet', currency: 'USD' },
    });
    expect(doc.transactions.length).toBe(60);
    const page = listTransactions(engine, ws, { direction: 'inflow', limit: '200', sort: 'timestamp_asc' });
    expect(doc.transactions).toEqual(page.data);
    expect(doc.summary).toEqual(page.summary);
    expect(doc.groups.map((g: { key: string }) => g.key)).toEqual(['A']);
    expect(doc.groups[0].transactions).toEqual(page.data.map((t) => t.id));
    const bare = await createExport(engine, ws, { format: 'json', options: { include_summary: false } });
    const bareDoc = JSON.parse(readFileSync(downloadExport(engine, ws, bare.id, join(dir, 'b.json')).path, 'utf8'));
    expect(Object.keys(bareDoc)).toEqual(['export', 'transactions']);
  });

  test('round trip: export a workspace to JSON, import it into an empty ledger, same `tx list` ignoring ids', async () => {
    const src = tempLedger('pro');
    const w = addWallets(src.engine, src.ws, ['Main', 'Savings, "long-term"']);
    const ids = addTxs(src.engine, src.ws, w, [
      { wallet: 0, day: '2024-01-05', amount: '1.000000000000000001', fiat: '2500.10', direction: 'inflow', notes: 'salary =1+1' },
      { wallet: 1, day: '2024-01-06', amount: '0.5', fiat: null, direction: 'outflow', symbol: 'ETH', from: ADDR(1), to: ADDR(91) },
      {
        wallet: 0,
        day: '2024-02-07',
        amount: '123456789.123456789',
        fiat: '0.01',
        direction: 'outflow',
        notes: 'Ünïcödé ✓\nline 2',
        from: ADDR(0),
        to: ADDR(91),
      },
    ]);
    const income = tag(src.engine, src.ws, 'Income', 'income');
    tagTransaction(src.engine, src.ws, ids[0]!, { tag_ids: [income, tag(src.engine, src.ws, 'Payroll')] });
    updateTransaction(src.engine, src.ws, ids[1]!, { notes: 'gas' });
    const rec = await createExport(src.engine, src.ws, { format: 'json' });
    const file = downloadExport(src.engine, src.ws, rec.id, join(src.dir, 'workspace.json')).path;

    const dst = tempLedger('pro');
    const summary = importFile(dst.engine, dst.ws, file);
    expect(summary.imported).toBe(3);
    const strip = (t: Transaction) => ({ ...t, id: undefined, wallet_id: undefined, tags: t.tags.map((g) => ({ name: g.name, color: g.color })) });
    const before = listTransactions(src.engine, src.ws, { limit: '200' });
    const after = listTransactions(dst.engine, dst.ws, { limit: '200' });
    expect(after.data.map(strip)).toEqual(before.data.map(strip));
    expect(after.summary).toEqual(before.summary);
    // Importing it again adds nothing.
    expect(importFile(dst.engine, dst.ws, file).imported).toBe(0);
  });
});

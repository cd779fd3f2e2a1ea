/**
 * Report notes and `strict` (docs/periods.md, "Report notes"): a report over a period and wallets
 * with unpriced rows or own transfers not matched says so (CSV summary rows, JSON `notes`, the
 * PDF's first page, read back with pdftotext); outside its period or wallets they are no note;
 * `strict` refuses it with UNRESOLVED_FINDINGS and writes nothing (no export record, no file).
 */
import { describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { tempLedger } from './seed.js';
import { createExport, downloadExport, listExports } from '../../src/engine/exports.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { unmatchTransfer } from '../../src/engine/transfers.js';
import { txaRejectionOf } from '../helpers/errors.js';
import { pdfText } from '../pdf/helpers.js';
import type { ImportRecord } from '../../src/importers/types.js';

const { dir, engine, ws } = tempLedger('enterprise');
const A = `0x${'1'.repeat(40)}`;
const B = `0x${'2'.repeat(40)}`;
const SHOP = `0x${'9'.repeat(40)}`;
const main = engine.write(() => insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'Main' }).id);
const savings = engine.write(() => insertNewWallet(engine, ws, { address: B, chain: 'ethereum', label: 'Savings' }).id);

let n = 0;
function rec(day: string, over: Partial<ImportRecord>): ImportRecord {
  return {
    line: ++n,
    tx_hash: `0x${n.toString(16).padStart(64, '0')}`,
    from_address: SHOP,
    to_address: A,
    token: { symbol: 'ETH', address: null, decimals: 18 },
    amount: '1',
    fiat_value: '2000',
    direction: 'inflow',
    type: 'transfer',
    timestamp: Date.parse(`${day}T12:00:00Z`) / 1000,
    notes: null,
    ...over,
  };
}

// 2023: all priced, nothing to note. 2024 in Main: two unpriced rows, and one sent to Savings not
// matched as an own transfer. Savings' own 2024 row is priced.
importRecords(
  engine,
  ws,
  [rec('2023-03-01', {}), rec('2023-05-01', { direction: 'outflow', from_address: A, to_address: SHOP, amount: '0.5', fiat_value: '1200' })],
  {
    walletId: main,
    format: 'json',
  },
);
importRecords(
  engine,
  ws,
  [
    rec('2024-02-01', { fiat_value: null }),
    rec('2024-03-01', { fiat_value: null, amount: '2' }),
    rec('2024-04-01', { direction: 'outflow', from_address: A, to_address: B, amount: '0.25', fiat_value: '800' }),
  ],
  { walletId: main, format: 'json' },
);
importRecords(engine, ws, [rec('2024-06-01', { to_address: B })], { walletId: savings, format: 'json' });
// The import matched the send to Savings as an own transfer; unmatched by hand, it is a finding again.
unmatchTransfer(engine, ws, engine.db.prepare('SELECT transfer_id FROM transactions WHERE transfer_id IS NOT NULL').pluck().get() as string);

const Y2024 = { start_date: '2024-01-01', end_date: '2024-12-31' };
const UNMATCHED = '1 row looks like own transfers not matched (unmatched_transfer)';
const UNPRICED = '2 rows have no fiat value (unpriced)';

async function download(body: Record<string, unknown>): Promise<string> {
  const rec = await createExport(engine, ws, body);
  expect(rec.status).toBe('completed');
  return downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.${body.format}`)).path;
}

describe('report notes', () => {
  test('the tax CSV of 2024 ends its summary rows with one note per kind, with its count', async () => {
    const rows = parse(readFileSync(await download({ format: 'csv', report_type: 'tax', filters: Y2024 }), 'utf8')) as string[][];
    const notes = rows.filter((r) => r[0]!.startsWith('Note: '));
    expect(notes.map((r) => r[0])).toEqual([expect.stringContaining(UNMATCHED), expect.stringContaining(UNPRICED)]);
    expect(rows.slice(-2)).toEqual(notes);
    expect(new Set(notes.flatMap((r) => r.slice(1)))).toEqual(new Set(['']));
  });

  test('the income JSON has a notes array with kind, count and message', async () => {
    const body = JSON.parse(readFileSync(await download({ format: 'json', report_type: 'income', filters: Y2024 }), 'utf8'));
    expect(body.notes.map((x: any) => [x.kind, x.count])).toEqual([
      ['unmatched_transfer', 1],
      ['unpriced', 2],
    ]);
    expect(body.notes[1].message).toContain(UNPRICED);
  });

  test('no note outside the period or the wallets of the findings: an empty array, no note row', async () => {
    const body = JSON.parse(
      readFileSync(await download({ format: 'json', report_type: 'tax', filters: { start_date: '2023-01-01', end_date: '2023-12-31' } }), 'utf8'),
    );
    expect(body.notes).toEqual([]);
    const rows = parse(readFileSync(await download({ format: 'csv', report_type: 'tax', filters: { ...Y2024, wallet_ids: [savings] } }), 'utf8')) as string[][];
    expect(rows.filter((r) => r[0]!.startsWith('Note: '))).toEqual([]);
  });

  test('the PDF says it on its first page', async () => {
    const pages = pdfText(await download({ format: 'pdf', report_type: 'tax', filters: Y2024 }));
    const first = pages[0]!.replace(/\s+/g, ' ');
    expect(first).toContain('Notes: unresolved findings');
    expect(first).toContain(UNMATCHED);
    expect(first).toContain(UNPRICED);
  });
});

describe('strict', () => {
  const files = () => readdirSync(join(`${engine.ledgerPath}.files`, 'exports')).length;

  test('refuses a report whose period has findings with UNRESOLVED_FINDINGS (exit 1), writing no export and no file', async () => {
    const [exports, before] = [listExports(engine, ws, {}).pagination.total, files()];
    for (const body of [
      { format: 'csv', report_type: 'tax', filters: Y2024, options: { strict: true } },
      { format: 'pdf', report_type: 'summary', filters: Y2024, options: { strict: true } },
    ]) {
      const e = await txaRejectionOf(createExport(engine, ws, body));
      expect([e.code, e.exitCode, e.field]).toEqual(['UNRESOLVED_FINDINGS', 1, 'options.strict']);
      expect(e.extra?.findings).toEqual([
        { kind: 'unmatched_transfer', count: 1 },
        { kind: 'unpriced', count: 2 },
      ]);
    }
    expect([listExports(engine, ws, {}).pagination.total, files()]).toEqual([exports, before]);
  });

  test('a clean period passes strict', async () => {
    const path = await download({
      format: 'csv',
      report_type: 'tax',
      filters: { start_date: '2023-01-01', end_date: '2023-12-31' },
      options: { strict: true },
    });
    expect(readFileSync(path, 'utf8')).toContain('Total gain');
  });

  test('strict must be a boolean', async () => {
    const e = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'tax', options: { strict: 'yes' } }));
    expect([e.code, e.field]).toEqual(['INVALID_FIELD', 'options.strict']);
  });
});

/**
 * Form 8949, the tax-software files and the 1099-DA reconciliation, from a real ledger file
 * through the export pipeline, read back with csv-parse. The worked example of docs/accounting.md
 * "Form 8949, 1099-DA and the roll-forward", by hand (one wallet, ETH, FIFO):
 *  - 2023-03-01 buy 2 ETH for 3,000.00 (lot A, 1,500.00 per ETH); 2024-06-15 buy 1 ETH for 2,500.00 (lot B).
 *  - 2024-06-01 sell 1 ETH for 3,800.00: lot A, cost 1,500.00, gain 2,300.00, long; before 2025 and
 *    no broker line → Part II, box F.
 *  - 2025-02-10 sell 1.5 ETH for 4,500.00: 1 ETH of lot A (proceeds 4,500.00 × 1/1.5 = 3,000.00,
 *    cost 1,500.00, long) and 0.5 ETH of lot B (proceeds 1,500.00, cost 1,250.00, short: held
 *    2024-06-15 → 2025-02-10). The broker's 1099-DA line reports 1.5 ETH, proceeds 4,500.00,
 *    basis 2,900.00 to the IRS (txa: 2,750.00). Split by quantity: 2,900.00 × 1/1.5 = 1,933.33
 *    and 966.67. Lot A piece: box J, (d) 3,000.00, (e) 1,933.33, code B, (g) 1,933.33 − 1,500.00
 *    = 433.33, (h) 3,000.00 − 1,933.33 + 433.33 = 1,500.00. Lot B piece: box G, (d) 1,500.00,
 *    (e) 966.67, code B, (g) 966.67 − 1,250.00 = −283.33, (h) 250.00. Reconciliation: basis
 *    difference 2,750.00 − 2,900.00 = −150.00, code B, adjustment 433.33 − 283.33 = 150.00.
 *  - 2025-03-01 a 0.01 ETH fee worth 30.00: lot B, cost round(2,500.00 × 0.51) − 1,250.00 = 25.00,
 *    gain 5.00, short; no broker line → box I.
 *  - A broker line of 2025-04-01 (0.2 ETH, 600.00, no basis) matches nothing: "broker line only".
 */
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { tempLedger } from './seed.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { createWallet } from '../../src/engine/wallets.js';
import { EXCHANGE_CHAIN } from '../../src/core/chains.js';
import { importBrokerLines } from '../../src/engine/broker-lines.js';
import { listBrokerLines } from '../../src/store/broker-lines.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import { amountKey } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';
import { txaRejectionOf } from '../helpers/errors.js';

const { dir, engine, ws } = tempLedger('enterprise');
// The broker's account: an exchange wallet (an address wallet's disposals are self-custody, boxes C/F and I/L).
const cb = createWallet(engine, ws, { kind: 'exchange', exchange: 'coinbase', label: 'Coinbase' }).id;

let n = 0;
function add(day: string, direction: 'inflow' | 'outflow', amount: string, cents: number, type: 'transfer' | 'fee' = 'transfer'): string {
  const hash = `0x${(++n).toString(16).padStart(64, '0')}`;
  const row: NewTransaction = {
    id: transactionId(cb, hash, '0'),
    workspace_id: ws,
    wallet_id: cb,
    chain: EXCHANGE_CHAIN,
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
    type,
    ts: Date.parse(`${day}T12:00:00Z`) / 1000,
    notes: null,
  };
  engine.write(() => insertTransactions(engine.db, [row], 0));
  return row.id;
}

add('2023-03-01', 'inflow', '2', 300000);
add('2024-06-15', 'inflow', '1', 250000);
const sale2024 = add('2024-06-01', 'outflow', '1', 380000);
const sale2025 = add('2025-02-10', 'outflow', '1.5', 450000);
const fee2025 = add('2025-03-01', 'outflow', '0.01', 3000, 'fee');

const brokerFile = join(dir, '1099da.csv');
writeFileSync(
  brokerFile,
  [
    'date_sold,date_acquired,asset,units,proceeds,cost_basis,basis_reported',
    '2025-02-10,,ETH,1.50000000,4500.00,2900.00,true',
    '04/01/2025,,eth,0.2,600,,no',
  ].join('\n'),
);

async function download(body: Record<string, unknown>): Promise<string> {
  const rec = await createExport(engine, ws, body);
  expect(rec.status).toBe('completed');
  return readFileSync(downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.${body.format}`)).path, 'utf8');
}

describe('1099-DA lines', () => {
  test('a dry run validates and counts, writing nothing', async () => {
    expect(await importBrokerLines(engine, ws, cb, brokerFile, true)).toMatchObject({ imported: 2, replaced: 0, dry_run: true });
    expect(listBrokerLines(engine.db, ws)).toEqual([]);
  });

  test('imported into the wallet, kept apart from its transactions; a re-import replaces the same year', async () => {
    expect(await importBrokerLines(engine, ws, cb, brokerFile)).toMatchObject({ imported: 2, replaced: 0, years: [2025] });
    expect(await importBrokerLines(engine, ws, cb, brokerFile)).toMatchObject({ imported: 2, replaced: 2 });
    const lines = listBrokerLines(engine.db, ws);
    expect(lines.map((l) => [l.line, l.date_sold, l.asset, l.units, l.proceeds_cents, l.cost_basis_cents, l.basis_reported])).toEqual([
      [2, '2025-02-10', 'ETH', '1.5', 450000n, 290000n, true],
      [3, '2025-04-01', 'ETH', '0.2', 60000n, null, false],
    ]);
    const txs = engine.db.prepare('SELECT count(*) AS c FROM transactions WHERE workspace_id = ?').get(ws) as { c: number };
    expect(txs.c).toBe(5);
  });

  test.each([
    ['date_sold,asset,units,proceeds,cost_basis,basis_reported\n2025-01-01,ETH,1,1,1,true', 1, 'date_acquired'],
    ['date_sold,date_acquired,asset,units,proceeds,cost_basis,basis_reported\n2025-01-01,,ETH,1,ten,,true', 2, 'proceeds'],
    ['date_sold,date_acquired,asset,units,proceeds,cost_basis,basis_reported\n2025-01-01,,ETH,1,1,,true\n2025-01-02,,ETH,1,1,x,true', 3, 'cost_basis'],
    ['date_sold,date_acquired,asset,units,proceeds,cost_basis,basis_reported\n2025-01-01,,ETH,1,1,,maybe', 2, 'basis_reported'],
    ['date_sold,date_acquired,asset,units,proceeds,cost_basis,basis_reported\n2025-13-01,,ETH,1,1,,true', 2, 'date_sold'],
  ])('a bad file is refused whole, naming the line and field: %#', async (text, line, field) => {
    const before = listBrokerLines(engine.db, ws);
    const bad = join(dir, `bad-${field}.csv`);
    writeFileSync(bad, text);
    const err = await txaRejectionOf(importBrokerLines(engine, ws, cb, bad));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.field).toBe(field);
    expect((err.extra as { errors: { line: number }[] }).errors[0]!.line).toBe(line);
    expect(listBrokerLines(engine.db, ws)).toEqual(before);
  });

  test('an address wallet (self-custody) takes no broker lines: INVALID_FIELD naming --wallet-id, nothing written, dry run too', async () => {
    const before = listBrokerLines(engine.db, ws);
    const own = createWallet(engine, ws, { address: `0x${'5'.repeat(40)}`, chain: 'ethereum', label: 'Ledger' }).id;
    for (const dryRun of [false, true]) {
      const err = await txaRejectionOf(importBrokerLines(engine, ws, own, brokerFile, dryRun));
      expect([err.code, err.field, err.message]).toEqual([
        'INVALID_FIELD',
        'wallet',
        `--wallet-id ${own} is an address wallet (self-custody); a 1099-DA is a broker's statement of an account it keeps, imported into that exchange wallet`,
      ]);
    }
    expect(listBrokerLines(engine.db, ws)).toEqual(before);
  });
});

const COLS = [
  'part',
  'box',
  'description',
  'date_acquired',
  'date_sold',
  'proceeds',
  'cost_basis',
  'adjustment_code',
  'adjustment',
  'gain_loss',
  'wallet_label',
  'disposed_transaction_id',
];

describe('form8949 CSV', () => {
  test('a 2024 and a 2025 disposal of one history: two box systems, the 1099-DA line giving G and J with code B', async () => {
    await importBrokerLines(engine, ws, cb, brokerFile);
    const rows = parse(await download({ format: 'csv', report_type: 'form8949' })) as string[][];
    expect(rows[0]).toEqual(COLS);
    expect(rows.slice(1, 5)).toEqual([
      ['II', 'F', '1 ETH', '03/01/2023', '06/01/2024', '3800.00', '1500.00', '', '', '2300.00', 'Coinbase', sale2024],
      ['II', 'J', '1 ETH', '03/01/2023', '02/10/2025', '3000.00', '1933.33', 'B', '433.33', '1500.00', 'Coinbase', sale2025],
      ['I', 'G', '0.5 ETH', '06/15/2024', '02/10/2025', '1500.00', '966.67', 'B', '-283.33', '250.00', 'Coinbase', sale2025],
      ['I', 'I', '0.01 ETH', '06/15/2024', '03/01/2025', '30.00', '25.00', '', '', '5.00', 'Coinbase', fee2025],
    ]);
    expect(rows[5]).toEqual(COLS.map(() => ''));
    expect(rows.slice(6).map((r) => [r[0], r[1], r[2], r[5], r[6], r[8], r[9]])).toEqual([
      ['I', 'G', 'Total (1 row)', '1500.00', '966.67', '-283.33', '250.00'],
      ['I', 'I', 'Total (1 row)', '30.00', '25.00', '0.00', '5.00'],
      ['II', 'F', 'Total (1 row)', '3800.00', '1500.00', '0.00', '2300.00'],
      ['II', 'J', 'Total (1 row)', '3000.00', '1933.33', '433.33', '1500.00'],
    ]);
    expect(new Set(rows.map((r) => r.length))).toEqual(new Set([12]));
  });

  test('a year: only its disposals, the lots still from all history', async () => {
    const rows = parse(
      await download({
        format: 'csv',
        report_type: 'form8949',
        filters: { start_date: '2024-01-01', end_date: '2024-12-31' },
        options: { include_summary: false },
      }),
    ) as string[][];
    expect(rows.slice(1).map((r) => [r[1], r[9]])).toEqual([['F', '2300.00']]);
  });
});

describe('tax-software CSVs', () => {
  test("turbotax: TurboTax's columns, one row per disposed lot, txa's figures", async () => {
    const rows = parse(await download({ format: 'csv', report_type: 'turbotax' }), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['Currency Name', 'Purchase Date', 'Cost Basis', 'Date Sold', 'Proceeds']);
    expect(rows.map((r) => Object.values(r))).toEqual([
      ['ETH', '03/01/2023', '1500.00', '06/01/2024', '3800.00'],
      ['ETH', '03/01/2023', '1500.00', '02/10/2025', '3000.00'],
      ['ETH', '06/15/2024', '1250.00', '02/10/2025', '1500.00'],
      ['ETH', '06/15/2024', '25.00', '03/01/2025', '30.00'],
    ]);
  });

  test("taxact: TaxAct's columns with the form's adjustment and the box as reporting category", async () => {
    const rows = parse(await download({ format: 'csv', report_type: 'taxact' }), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'Description',
      'Date Acquired',
      'Date Sold',
      'Sales Proceeds',
      'Cost or Other Basis',
      'Adjustment Code',
      'Adjustment Amount',
      'Reporting Category',
    ]);
    expect(rows.map((r) => Object.values(r))).toEqual([
      ['1 ETH', '03/01/2023', '06/01/2024', '3800.00', '1500.00', '', '', 'F'],
      ['1 ETH', '03/01/2023', '02/10/2025', '3000.00', '1933.33', 'B', '433.33', 'J'],
      ['0.5 ETH', '06/15/2024', '02/10/2025', '1500.00', '966.67', 'B', '-283.33', 'G'],
      ['0.01 ETH', '06/15/2024', '03/01/2025', '30.00', '25.00', '', '', 'I'],
    ]);
  });

  test('turbotax and taxact are CSV only; an option of another report is refused', async () => {
    for (const report_type of ['turbotax', 'taxact']) {
      const err = await txaRejectionOf(createExport(engine, ws, { format: 'json', report_type }));
      expect([err.code, err.field]).toEqual(['INVALID_FIELD', 'report_type']);
    }
    const err = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'form8949', options: { at: '2025-01-01' } }));
    expect([err.code, err.field]).toEqual(['INVALID_FIELD', 'options.at']);
    const unknown = await txaRejectionOf(createExport(engine, ws, { format: 'csv', report_type: 'form8949', options: { box: 'G' } }));
    expect([unknown.code, unknown.field]).toEqual(['INVALID_FIELD', 'options']);
  });
});

describe('reconciliation', () => {
  test('each broker line beside its disposal, the differences, the code and amount; lines and disposals alone listed too', async () => {
    const rows = parse(await download({ format: 'csv', report_type: 'reconciliation', filters: { start_date: '2025-01-01', end_date: '2025-12-31' } }), {
      columns: true,
    }) as Record<string, string>[];
    const pick = (r: Record<string, string>) => [
      r.status,
      r.date_sold,
      r.units,
      r.broker_line,
      r.broker_proceeds,
      r.broker_cost_basis,
      r.txa_proceeds,
      r.txa_cost_basis,
      r.proceeds_difference,
      r.basis_difference,
      r.adjustment_code,
      r.adjustment,
    ];
    expect(rows.slice(0, 3).map(pick)).toEqual([
      ['matched', '2025-02-10', '1.5', '2', '4500.00', '2900.00', '4500.00', '2750.00', '0.00', '-150.00', 'B', '150.00'],
      ['txa only', '2025-03-01', '0.01', '', '', '', '30.00', '25.00', '', '', '', ''],
      ['broker line only', '2025-04-01', '0.2', '3', '600.00', '', '', '', '', '', '', ''],
    ]);
    expect(rows[0]!.disposed_transaction_id).toBe(sale2025);
    expect(rows.slice(4).map((r) => [r.status, r.units])).toEqual([
      ['Total matched', '1'],
      ['Total broker line only', '1'],
      ['Total txa only', '1'],
    ]);
  });

  test('JSON: the same rows under lines, with counts', async () => {
    const body = JSON.parse(await download({ format: 'json', report_type: 'reconciliation', filters: { start_date: '2025-01-01', end_date: '2025-12-31' } }));
    expect(body.export.report_type).toBe('reconciliation');
    expect(body.lines.map((l: any) => [l.status, l.adjustment_code, l.adjustment, l.basis_difference])).toEqual([
      ['matched', 'B', 150, -150],
      ['txa only', null, null, null],
      ['broker line only', null, null, null],
    ]);
    expect(body.totals).toEqual({ matched: 1, broker_line_only: 1, txa_only: 1 });
  });
});

describe('form8949 PDF', () => {
  test('laid out as the form: Part I then Part II, a box per page, columns (a)–(h) and each box’s totals; text pdftotext reads', async () => {
    await importBrokerLines(engine, ws, cb, brokerFile);
    const rec = await createExport(engine, ws, { format: 'pdf', report_type: 'form8949' });
    expect(rec.status).toBe('completed');
    const file = downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.pdf`)).path;
    const all = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
      .split('\f')
      .filter((p) => p.trim() !== '');
    // By year (the default scope), the 2024 pool was split at 2025-01-01 by the computed (no
    // recorded) allocation: the report's first page notes it (docs/periods.md "Report notes").
    expect(all.length).toBe(5);
    expect(all[0]).toContain('unrecorded_allocation');
    const pages = all.slice(1);
    const boxOf = (page: string) => /Box ([A-L]):/.exec(page)?.[1];
    expect(pages.map(boxOf)).toEqual(['G', 'I', 'F', 'J']);
    expect(pages[0]).toContain('Part I — Short-Term');
    expect(pages[2]).toContain('Part II — Long-Term');
    expect(pages[0]).toContain('Box G: short-term transactions reported on Form(s) 1099-DA showing basis was reported to the IRS');
    expect(pages[2]).toContain('Box F: long-term transactions not reported to you on Form 1099-B');
    for (const col of [
      '(a) Description of property',
      '(b) Date acquired',
      '(d) Proceeds',
      '(e) Cost or other basis',
      '(f) Code(s)',
      '(g) Adjustment',
      '(h) Gain or (loss)',
    ])
      expect(pages[0]).toContain(col);
    expect(pages[0]).toMatch(/0\.5 ETH\s+06\/15\/2024\s+02\/10\/2025\s+1,500\.00\s+966\.67\s+B\s+-283\.33\s+250\.00/);
    expect(pages[0]).toMatch(/Totals, box G \(1 row\)\s+1,500\.00\s+966\.67\s+-283\.33\s+250\.00/);
    expect(pages[3]).toMatch(/1 ETH\s+03\/01\/2023\s+02\/10\/2025\s+3,000\.00\s+1,933\.33\s+B\s+433\.33\s+1,500\.00/);
    expect(pages[2]).toMatch(/Totals, box F \(1 row\)\s+3,800\.00\s+1,500\.00\s+0\.00\s+2,300\.00/);
    pages.forEach((p, i) => expect(p).toContain(`Page ${i + 2} of 5`));
  });
});

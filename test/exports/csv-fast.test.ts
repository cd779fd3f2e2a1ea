/**
 * The CSV written from SQL-read cells (store/csv-rows.ts) against the JS writer: for random ledgers full of
 * hostile text, random column subsets/orders, every date format and filter, the two files must
 * be byte-identical.
 */
import { describe, test, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ledgerArb, seed, type Ledger } from './random-ledger.js';
import { streamTransactions, summaryOf } from '../../src/engine/transactions.js';
import { csvRawRows } from '../../src/store/csv-rows.js';
import { writeCsv } from '../../src/exporters/csv.js';
import type { ExportJob } from '../../src/exporters/types.js';
import { CSV_COLUMNS, DATE_FORMATS, type CsvColumn } from '../../src/core/export-values.js';
import type { TxFilter } from '../../src/core/filters.js';
import type { Engine } from '../../src/engine/engine.js';

const DATE_PATTERNS = DATE_FORMATS.flatMap((d) => [d, `${d} HH:mm:ss`, `${d} HH:mm`]);
const FILTERS: TxFilter[] = [{}, { direction: 'inflow' }, { hasTags: true }, { hasNotes: false }];

/** How many times a job read Transaction objects: the JS writer ran (or the SQL lines fell back to it). */
let jsReads = 0;

function jobOf(engine: Engine, ws: string, filter: TxFilter, columns: CsvColumn[], dateFormat: string, includeSummary: boolean, fast: boolean): ExportJob {
  const summary = summaryOf(engine, ws, filter);
  const job = {
    exportId: 'exp_test',
    createdAt: '2024-01-01T00:00:00Z',
    format: 'csv',
    filters: {},
    columns,
    summary,
    transactionCount: summary.transaction_count,
    options: { currency: 'USD', date_format: dateFormat, include_summary: includeSummary, include_logo: false, cost_basis: 'fifo' },
    rows: () => {
      jsReads++;
      return streamTransactions(engine, ws, filter, 'timestamp_asc');
    },
    onProgress: () => {},
  } as unknown as ExportJob;
  if (fast)
    job.unconverted = {
      db: engine.db,
      workspaceId: ws,
      filter,
      transaction: () => {
        throw new Error('the CSV writer reads no single transaction');
      },
    };
  return job;
}

function takesSqlPath(engine: Engine, ws: string, filter: TxFilter, columns: CsvColumn[], dateFormat: string): boolean {
  return csvRawRows(engine.db, ws, filter, columns, dateFormat) !== null;
}

/** Both files, and whether the fast job kept its SQL-read lines to the end. */
async function bothFiles(engine: Engine, ws: string, dir: string, filter: TxFilter, columns: CsvColumn[], dateFormat: string, summary: boolean) {
  const before = jsReads;
  await writeCsv(jobOf(engine, ws, filter, columns, dateFormat, summary, true), join(dir, 'fast.csv'));
  const sqlKept = jsReads === before;
  await writeCsv(jobOf(engine, ws, filter, columns, dateFormat, summary, false), join(dir, 'js.csv'));
  return { fast: readFileSync(join(dir, 'fast.csv')), js: readFileSync(join(dir, 'js.csv')), sqlKept };
}

describe('CSV fast path (cells read by SQL)', () => {
  test('is byte-identical to the JS writer for random ledgers, columns, date formats and filters', async () => {
    let sqlRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        ledgerArb,
        fc.shuffledSubarray([...CSV_COLUMNS], { minLength: 1 }),
        fc.constantFrom(...DATE_PATTERNS),
        fc.constantFrom(...FILTERS),
        fc.boolean(),
        async (ledger, columns, dateFormat, filter, summary) => {
          const { engine, ws, dir } = seed(ledger);
          try {
            const { fast, js, sqlKept } = await bothFiles(engine, ws, dir, filter, columns, dateFormat, summary);
            if (sqlKept) sqlRuns++;
            // Only a cell holding a mark of the raw rows (store/raw-rows.ts) makes SQL-read lines fall back here.
            if (takesSqlPath(engine, ws, filter, columns, dateFormat) && !/\\u001[def]/.test(JSON.stringify(ledger))) expect(sqlKept).toBe(true);
            expect(fast.toString('utf8')).toBe(js.toString('utf8'));
            expect(fast.equals(js)).toBe(true);
          } finally {
            engine.close();
          }
        },
      ),
      { numRuns: 200 },
    );
    // The comparison means nothing if the SQL path never ran.
    expect(sqlRuns).toBeGreaterThan(60);
  });

  test('takes the SQL path for hostile text, and keeps JS when SQLite would order tags differently', async () => {
    const ledger: Ledger = {
      labels: ['=wallet', 'a,b', '"q"'],
      tagNames: ['b', 'A', '-1.5', '=x', 'é'],
      txs: [
        {
          wallet: 0,
          ts: 1_700_000_000,
          amount: '0.000000000000000001',
          fiatCents: -5,
          direction: 'outflow',
          symbol: '@T',
          notes: 'l1\r\nl2,\x1fsep',
          hash: '-12',
          chain: 'ethereum',
          tokenAddress: null,
          from: '+1',
          type: 'transfer',
          tags: [0, 1, 2, 3, 4],
          attachments: ['x"y.pdf', '=a.png'],
        },
        // Text that is almost a plain number: only -?digits(.digits)? escapes the formula prefix.
        ...['-1.2.3', '-1..2', '-.5', '-5.', '-', '-12', '-0.50', '--1', '-1e5', '-١٢'].map((notes, i) => ({
          wallet: 1,
          ts: 1_700_000_100 + i,
          amount: '1',
          fiatCents: null,
          direction: 'inflow' as const,
          symbol: notes,
          notes,
          hash: `h${i}`,
          chain: 'ethereum' as const,
          tokenAddress: null,
          from: 'f',
          type: 'transfer',
          tags: [],
          attachments: [],
        })),
      ],
    };
    const { engine, ws, dir } = seed(ledger);
    expect(takesSqlPath(engine, ws, {}, [...CSV_COLUMNS], 'YYYY-MM-DD')).toBe(true);
    const all = await bothFiles(engine, ws, dir, {}, [...CSV_COLUMNS], 'DD/MM/YYYY HH:mm', true);
    // The first row's notes hold a separator of the raw rows: the SQL lines give way to the JS writer.
    expect(all.sqlKept).toBe(false);
    expect(all.fast.equals(all.js)).toBe(true);
    const { fast, js, sqlKept } = await bothFiles(
      engine,
      ws,
      dir,
      {},
      CSV_COLUMNS.filter((c) => c !== 'notes'),
      'DD/MM/YYYY HH:mm',
      true,
    );
    expect(sqlKept).toBe(true);
    expect(fast.equals(js)).toBe(true);
    expect(js.toString()).toContain(",'=wallet,");
    // U+E000 sorts before U+1F600 in UTF-8 but after it in UTF-16: SQL cannot order these as JS does.
    engine.db.prepare('UPDATE tags SET name = ? WHERE id = ?').run('\uE000', 'tag_0');
    engine.db.prepare('UPDATE tags SET name = ? WHERE id = ?').run('😀', 'tag_1');
    expect(takesSqlPath(engine, ws, {}, [...CSV_COLUMNS], 'YYYY-MM-DD')).toBe(false);
    expect(takesSqlPath(engine, ws, {}, ['date', 'notes'], 'YYYY-MM-DD')).toBe(true);
    engine.close();
  });

  test('gives way to the JS writer for a date or fiat value SQL cannot print as JS does', async () => {
    const tx = (ts: number, fiatCents: number | null) => ({
      wallet: 0,
      ts,
      amount: '1',
      fiatCents,
      direction: 'inflow' as const,
      symbol: 'ETH',
      notes: null,
      hash: `h${ts}`,
      chain: 'ethereum' as const,
      tokenAddress: null,
      from: 'f',
      type: 'transfer',
      tags: [],
      attachments: [],
    });
    const { engine, ws, dir } = seed({
      labels: ['a', 'b', 'c'],
      tagNames: ['t0', 't1', 't2', 't3', 't4'],
      txs: [tx(1_700_000_000, 1234), tx(1_700_000_100, -5)],
    });
    try {
      const plain = await bothFiles(engine, ws, dir, {}, ['date', 'fiat_value'], 'YYYY-MM-DD', false);
      expect(plain.sqlKept).toBe(true);
      expect(plain.js.toString()).toBe('date,fiat_value\r\n2023-11-14,12.34\r\n2023-11-14,-0.05\r\n');
      for (const [column, value] of [
        ['ts', 300_000_000_000],
        ['fiat_cents', 2 ** 60],
      ] as const) {
        engine.db.prepare(`UPDATE transactions SET ${column} = ? WHERE id = 'tx_001'`).run(value);
        const { fast, js, sqlKept } = await bothFiles(engine, ws, dir, {}, ['date', 'fiat_value'], 'YYYY-MM-DD', false);
        expect(sqlKept).toBe(false);
        expect(fast.equals(js)).toBe(true);
        engine.db.prepare(`UPDATE transactions SET ts = 1700000100, fiat_cents = -5 WHERE id = 'tx_001'`).run();
      }
    } finally {
      engine.close();
    }
  });
});

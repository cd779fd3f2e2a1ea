/**
 * Large exports read each row's tags from tag sets read once (store/tag-sets.ts) and CSV rows as
 * lines with marks (store/raw-rows.ts). Both paths against the JS writers, which read Transaction
 * objects: the files must be byte-identical, with and without the tag sets.
 */
import { describe, test, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ledgerArb, seed, type Ledger } from './random-ledger.js';
import { getTransaction, streamTransactions, summaryOf } from '../../src/engine/transactions.js';
import { writeCsv } from '../../src/exporters/csv.js';
import { writeJson } from '../../src/exporters/json.js';
import { readTagSets } from '../../src/store/tag-sets.js';
import type { ExportJob } from '../../src/exporters/types.js';
import { CSV_COLUMNS } from '../../src/core/export-values.js';
import type { Engine } from '../../src/engine/engine.js';

type Path = 'js' | 'tag sets' | 'subqueries';

/** A job of every row; `rowCount` stands in for the real count to choose the tag sets (large) or the subqueries (0). */
function jobOf(engine: Engine, ws: string, format: 'csv' | 'json', path: Path): ExportJob {
  const summary = summaryOf(engine, ws, {});
  const job = {
    exportId: 'exp_test',
    createdAt: '2024-01-01T00:00:00Z',
    format,
    filters: {},
    columns: [...CSV_COLUMNS],
    summary,
    transactionCount: path === 'tag sets' ? 1_000_000 : 0,
    options: { currency: 'USD', date_format: 'YYYY-MM-DD HH:mm:ss', include_summary: true, include_logo: false, cost_basis: 'fifo' },
    rows: () => streamTransactions(engine, ws, {}, 'timestamp_asc'),
    onProgress: () => {},
  } as unknown as ExportJob;
  if (path !== 'js') job.unconverted = { db: engine.db, workspaceId: ws, filter: {}, transaction: (id) => getTransaction(engine, ws, id) };
  return job;
}

async function fileOf(engine: Engine, ws: string, dir: string, format: 'csv' | 'json', path: Path): Promise<Buffer> {
  const file = join(dir, `${path}.${format}`);
  await (format === 'csv' ? writeCsv : writeJson)(jobOf(engine, ws, format, path), file);
  return readFileSync(file);
}

const hostile = (i: number, tags: number[], notes: string | null, amount: string, fiatCents: number | null) => ({
  wallet: i % 3,
  ts: 1_700_000_000 + i * 60,
  amount,
  fiatCents,
  direction: i % 2 ? ('outflow' as const) : ('inflow' as const),
  symbol: i % 4 ? 'USDC' : '日本円',
  notes,
  hash: `0x${String(i).padStart(64, 'a')}`,
  chain: 'ethereum' as const,
  tokenAddress: null,
  from: i % 5 ? 'f' : '=SUM(A1)',
  type: 'transfer',
  tags,
  attachments: [],
});

/** Tags with commas, quotes, line breaks and non-Latin names, in several sets; every kind of hostile cell. */
const LEDGER: Ledger = {
  labels: ['Main, "hot"', 'Трезор', '-cold'],
  tagNames: ['日本 vendor', 'Café & meals', 'a,b', '"quoted"', 'line\r\nbreak'],
  txs: [
    hostile(0, [0], 'plain', '1', 12_345),
    hostile(1, [1, 2], 'comma, here', '0.000000000000000001', -5),
    hostile(2, [3, 4, 0], 'say "hi"', '123456789012345678901234567890.123456789012345678', 99_999_999_999_999),
    hostile(3, [], 'multi\nline\r\nnote', '42', null),
    hostile(4, [4], null, '7.5', -99_999_999_999_999),
    hostile(5, [2, 1], '=cmd|calc', '3', 0),
    hostile(6, [0, 1, 2, 3, 4], '中文 и кириллица 😀', '0.1', 100),
    hostile(7, [1], '-12.50', '9', -1),
    hostile(8, [], '', '1', null),
    hostile(9, [3], '＠full-width', '2', 250),
  ],
};

describe('exports with tag sets and marked CSV rows', () => {
  for (const format of ['csv', 'json'] as const) {
    test(`${format}: hostile rows (tags, commas, quotes, line breaks, non-Latin text, nulls, huge amounts) equal the JS writer's file on both SQL paths`, async () => {
      const { engine, ws, dir } = seed(LEDGER);
      try {
        expect(readTagSets(engine.db, ws, 1_000_000, (tags) => tags.map((t) => t.name).join('; '))).not.toBeNull();
        const js = await fileOf(engine, ws, dir, format, 'js');
        expect((await fileOf(engine, ws, dir, format, 'tag sets')).equals(js)).toBe(true);
        expect((await fileOf(engine, ws, dir, format, 'subqueries')).equals(js)).toBe(true);
        if (format === 'csv') expect(js.toString()).toContain(',"a,b; Café & meals",');
      } finally {
        engine.close();
      }
    });

    test(`${format}: random ledgers equal the JS writer's file with tag sets`, async () => {
      await fc.assert(
        fc.asyncProperty(ledgerArb, async (ledger) => {
          const { engine, ws, dir } = seed(ledger);
          try {
            expect((await fileOf(engine, ws, dir, format, 'tag sets')).equals(await fileOf(engine, ws, dir, format, 'js'))).toBe(true);
          } finally {
            engine.close();
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  test('the tag sets give way to the subqueries when the export reads fewer than half as many rows as there are tag links', () => {
    const { engine, ws } = seed(LEDGER);
    try {
      const links = LEDGER.txs.reduce((n, t) => n + t.tags.length, 0);
      const text = (tags: { name: string }[]) => tags.map((t) => t.name).join('; ');
      expect(readTagSets(engine.db, ws, Math.floor(links / 2) - 1, text)).toBeNull();
      const sets = readTagSets(engine.db, ws, Math.ceil(links / 2), text)!;
      const textOf = (id: string) => sets.texts[sets.sets[engine.db.prepare('SELECT rowid FROM transactions WHERE id = ?').pluck().get(id) as number]!];
      // Tags in compareTagRefs order, whatever order they were linked in; the same set for the same tags.
      expect([textOf('tx_001'), textOf('tx_005'), textOf('tx_003')]).toEqual(['a,b; Café & meals', 'a,b; Café & meals', '']);
      expect(textOf('tx_006')).toBe('"quoted"; a,b; Café & meals; line\r\nbreak; 日本 vendor');
    } finally {
      engine.close();
    }
  });
});

/**
 * Large exports write their file on a worker thread (exporters/chunked-file.ts). The worker is
 * the compiled dist/exporters/file-worker.js (`npm test` builds dist first), so this test runs
 * the compiled writers against the in-thread ones from the sources: the files must be equal.
 */
import { describe, test, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seed, type Ledger } from './random-ledger.js';
import { getTransaction, streamTransactions, summaryOf } from '../../src/engine/transactions.js';
import { writeCsv } from '../../src/exporters/csv.js';
import { writeJson } from '../../src/exporters/json.js';
import type { ExportJob, ExportWriter } from '../../src/exporters/types.js';
import { CSV_COLUMNS } from '../../src/core/export-values.js';
import type { Engine } from '../../src/engine/engine.js';
import { openDb, watchCommits } from '../../src/store/db.js';

const compiled = {
  csv: (await import('../../dist/exporters/csv.js')).writeCsv as ExportWriter,
  json: (await import('../../dist/exporters/json.js')).writeJson as ExportWriter,
  OFF_THREAD_ROWS: (await import('../../dist/exporters/chunked-file.js')).OFF_THREAD_ROWS as number,
  RANGE_ROWS: (await import('../../dist/exporters/range-readers.js')).RANGE_ROWS as number,
};

/**
 * `rowCount` stands in for the real count so that the compiled writer takes the worker. With
 * `snapshot`, a JSON export of at least OFF_THREAD_ROWS rows is read by two readers.
 */
function jobOf(
  engine: Engine,
  ws: string,
  format: 'csv' | 'json',
  rowCount: number,
  extra: Partial<ExportJob['unconverted']> = {},
  onProgress = (_: number) => {},
): ExportJob {
  const summary = summaryOf(engine, ws, {});
  return {
    exportId: 'exp_test',
    createdAt: '2024-01-01T00:00:00Z',
    format,
    filters: {},
    columns: [...CSV_COLUMNS],
    summary,
    transactionCount: rowCount,
    options: { currency: 'USD', date_format: 'YYYY-MM-DD', include_summary: true, include_logo: false, cost_basis: 'fifo' },
    rows: () => streamTransactions(engine, ws, {}, 'timestamp_asc'),
    unconverted: { db: engine.db, workspaceId: ws, filter: {}, transaction: (id: string) => getTransaction(engine, ws, id), ...extra },
    onProgress,
  } as unknown as ExportJob;
}

/** Several rows share each timestamp, so ranges split ties; rows with attachments are made by the main thread only. */
function ledger(notes: (i: number) => string | null, length = 3000, attachmentEvery = 500): Ledger {
  return {
    labels: ['Main, "hot"', '=cold', 'Ünï'],
    tagNames: ['Income', 'fees', '-1.5', '@x', 'é'],
    txs: Array.from({ length }, (_, i) => ({
      wallet: i % 3,
      ts: 1_600_000_000 + Math.floor(i / 7) * 3_600,
      amount: `${i}.5`,
      fiatCents: i % 5 ? i * 101 - 40_000 : null,
      direction: i % 2 ? ('outflow' as const) : ('inflow' as const),
      symbol: i % 7 ? 'ETH' : '＝X',
      notes: notes(i),
      hash: `0x${i.toString(16).padStart(64, '0')}`,
      chain: 'ethereum' as const,
      tokenAddress: null,
      from: 'f',
      type: 'transfer',
      tags: i % 4 ? [] : [i % 5, (i + 1) % 5],
      attachments: i % attachmentEvery === 7 ? ['a.pdf'] : [],
    })),
  };
}

describe('exports written on a worker thread', () => {
  for (const [name, notes] of [
    ['hostile text', (i: number) => (i % 3 ? null : `line ${i}, "q"\r\n=cmd`)],
    ['a note holding the cell separator (the CSV falls back to the JS writer)', (i: number) => (i === 2_500 ? 'a\x1fb' : null)],
  ] as const) {
    test(`CSV and JSON equal the in-thread files: ${name}`, async () => {
      const { engine, ws, dir } = seed(ledger(notes));
      try {
        for (const format of ['csv', 'json'] as const) {
          const inThread = format === 'csv' ? writeCsv : writeJson;
          const a = await compiled[format](jobOf(engine, ws, format, compiled.OFF_THREAD_ROWS), join(dir, `worker.${format}`));
          const b = await inThread(jobOf(engine, ws, format, 0), join(dir, `here.${format}`));
          expect(readFileSync(join(dir, `worker.${format}`), 'utf8')).toBe(readFileSync(join(dir, `here.${format}`), 'utf8'));
          expect(a).toEqual(b);
          expect(a.bytes).toBeGreaterThan(300_000);
        }
      } finally {
        engine.close();
      }
    });
  }
});

describe('large exports read by two threads (range-readers.ts)', () => {
  const ROWS = 23_000; // several ranges
  const hostile = (i: number) => (i % 3 ? null : `line ${i}, "q"\r\n=cmd \u2028 日本`);
  const writers = { csv: writeCsv, json: writeJson };

  /** The job reads in one read transaction, as export-jobs.ts does, with a commit watch begun before it. */
  async function exportBoth(engine: Engine, ws: string, dir: string, format: 'csv' | 'json', between?: () => void, ledgerPath = engine.ledgerPath) {
    const watch = watchCommits(engine.ledgerPath);
    engine.db.exec('BEGIN');
    try {
      engine.db.prepare('SELECT 1 FROM transactions LIMIT 1').get();
      between?.();
      const progress: number[] = [];
      const snapshot = { path: ledgerPath, unchanged: watch.unchanged };
      const a = await compiled[format](
        jobOf(engine, ws, format, ROWS, { snapshot }, (n) => progress.push(n)),
        join(dir, `two.${format}`),
      );
      const b = await writers[format](jobOf(engine, ws, format, 0), join(dir, `one.${format}`));
      return { a, b, progress, two: readFileSync(join(dir, `two.${format}`), 'utf8'), one: readFileSync(join(dir, `one.${format}`), 'utf8') };
    } finally {
      engine.db.exec('COMMIT');
      watch.close();
    }
  }

  for (const format of ['csv', 'json'] as const) {
    test(`${format}: the file equals the one-reader file, digest included, with ties across ranges${format === 'json' ? ' and placeholder rows' : ''}`, async () => {
      const { engine, ws, dir } = seed(ledger(hostile, ROWS, 9_000));
      try {
        const { a, b, progress, one, two } = await exportBoth(engine, ws, dir, format);
        expect(two).toBe(one);
        expect(a).toEqual(b);
        if (format === 'json') expect((JSON.parse(two) as { transactions: unknown[] }).transactions).toHaveLength(ROWS);
        else expect(two.split('\r\n').length).toBeGreaterThan(ROWS);
        // Progress counts whole ranges (the one-reader loop counts by the thousand).
        expect(progress.every((n) => n % compiled.RANGE_ROWS === 0 || n === ROWS)).toBe(true);
        expect(progress.at(-1)).toBe(ROWS);
      } finally {
        engine.close();
      }
    });

    test(`${format}: a commit between the snapshot and the worker start: the worker reads nothing, the file is still the snapshot`, async () => {
      const { engine, ws, dir } = seed(ledger(hostile, ROWS, 9_000));
      const other = openDb(engine.ledgerPath);
      try {
        // Every row changed after the job's snapshot: any range the worker read in its later snapshot would show it.
        const late = () => other.prepare("UPDATE transactions SET notes = 'changed after the snapshot'").run();
        const { one, two } = await exportBoth(engine, ws, dir, format, late);
        expect(two).toBe(one);
        expect(two).not.toContain('changed after the snapshot');
        expect(other.prepare("SELECT count(*) FROM transactions WHERE notes = 'changed after the snapshot'").pluck().get()).toBe(ROWS);
      } finally {
        other.close();
        engine.close();
      }
    });
  }

  test('json: a worker that cannot open the ledger leaves every range to the main thread', async () => {
    const { engine, ws, dir } = seed(ledger(hostile, ROWS, 9_000));
    try {
      const { one, two, progress } = await exportBoth(engine, ws, dir, 'json', undefined, join(dir, 'no-such-ledger.db'));
      expect(two).toBe(one);
      expect(progress.at(-1)).toBe(ROWS);
      expect(progress.length).toBeGreaterThan(2); // progress was reported along the way
    } finally {
      engine.close();
    }
  });

  test('csv: a cell SQL cannot print (the cell separator) in a range either thread reads: the whole file falls back to the JS writer', async () => {
    const { engine, ws, dir } = seed(ledger((i) => (i === 21_500 || i === 1_500 ? 'a\x1fb' : hostile(i)), ROWS, 9_000));
    try {
      const { one, two } = await exportBoth(engine, ws, dir, 'csv');
      expect(two).toBe(one);
      expect(two).toContain('a\x1fb');
    } finally {
      engine.close();
    }
  });
});

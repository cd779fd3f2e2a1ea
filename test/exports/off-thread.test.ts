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
import { CSV_COLUMNS, type ExportJob, type ExportWriter } from '../../src/exporters/types.js';
import type { Engine } from '../../src/engine/engine.js';

const compiled = {
  csv: (await import('../../dist/exporters/csv.js')).writeCsv as ExportWriter,
  json: (await import('../../dist/exporters/json.js')).writeJson as ExportWriter,
  OFF_THREAD_ROWS: (await import('../../dist/exporters/chunked-file.js')).OFF_THREAD_ROWS as number,
};

/** `rowCount` stands in for the real count so that the compiled writer takes the worker. */
function jobOf(engine: Engine, ws: string, format: 'csv' | 'json', rowCount: number): ExportJob {
  const summary = summaryOf(engine, ws, {});
  return {
    exportId: 'exp_test', createdAt: '2024-01-01T00:00:00Z', format, filters: {}, columns: [...CSV_COLUMNS], summary, transactionCount: rowCount,
    options: { currency: 'USD', date_format: 'YYYY-MM-DD', include_summary: true, include_logo: false, cost_basis: 'fifo' },
    rows: () => streamTransactions(engine, ws, {}, 'timestamp_asc'),
    unconverted: { db: engine.db, workspaceId: ws, filter: {}, transaction: (id: string) => getTransaction(engine, ws, id) },
    onProgress: () => {},
  } as unknown as ExportJob;
}

function ledger(notes: (i: number) => string | null): Ledger {
  return {
    labels: ['Main, "hot"', '=cold', 'Ünï'],
    tagNames: ['Income', 'fees', '-1.5', '@x', 'é'],
    txs: Array.from({ length: 3000 }, (_, i) => ({
      wallet: i % 3, ts: 1_600_000_000 + i * 3_600, amount: `${i}.5`, fiatCents: i % 5 ? i * 101 - 40_000 : null, direction: i % 2 ? ('outflow' as const) : ('inflow' as const),
      symbol: i % 7 ? 'ETH' : '＝X', notes: notes(i), hash: `0x${i.toString(16).padStart(64, '0')}`, chain: 'ethereum' as const, tokenAddress: null, from: 'f',
      type: 'transfer', tags: i % 4 ? [] : [i % 5, (i + 1) % 5], attachments: i % 500 ? [] : ['a.pdf'],
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

/**
 * A large tax or income report's ledger rows are read by the file worker in the job's snapshot
 * (ExportJob.ledgerSource, store/ledger-read.ts) while this thread computes the lots. The worker
 * is the compiled dist/exporters/file-worker.js (`npm test` builds dist first), so the compiled
 * writer runs against the in-thread one from the sources: the files must be equal, and a commit
 * between the job's snapshot and the worker's leaves the reading to this thread.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seed, type Ledger } from './random-ledger.js';
import { ledgerRows, ledgerSource } from '../../src/engine/ledger-rows.js';
import { identity, type Convert } from '../../src/engine/rates.js';
import { writeTaxReport } from '../../src/exporters/tax-report.js';
import type { ExportJob, ExportWriter } from '../../src/exporters/types.js';
import { AssetTable } from '../../src/accounting/assets.js';
import { openDb, watchCommits } from '../../src/store/db.js';
import type { TxFilter } from '../../src/core/filters.js';
import type { Engine } from '../../src/engine/engine.js';

const compiled = {
  writeTaxReport: (await import('../../dist/exporters/tax-report.js')).writeTaxReport as ExportWriter,
  OFF_THREAD_ROWS: (await import('../../dist/exporters/chunked-file.js')).OFF_THREAD_ROWS as number,
};

const ROWS = 7_000; // several batches of records
const RATE: Convert = (cents) => (cents === null ? null : Math.round(cents * 1.37));

/** Rows in and out of three wallets, many per timestamp, hostile labels and symbols, income tags and own transfers. */
function ledger(rows = ROWS): Ledger {
  return {
    labels: ['Main, "hot"', '=cold', 'Ünï'],
    tagNames: ['Income', 'fees', '-1.5', '@x', 'é'],
    txs: Array.from({ length: rows }, (_, i) => ({
      wallet: i % 3,
      ts: 1_600_000_000 + Math.floor(i / 5) * 86_000,
      amount: `${(i % 17) + 1}.${i % 9}5`,
      fiatCents: i % 11 ? (i % 23) * 1_001 + 7 : null,
      direction: i % 3 === 1 ? ('outflow' as const) : ('inflow' as const),
      symbol: ['ETH', '＝X', 'A,"B"', '日本'][i % 4]!,
      notes: null,
      hash: `0x${i.toString(16).padStart(64, '0')}`,
      chain: i % 5 ? ('ethereum' as const) : ('base' as const),
      tokenAddress: null,
      from: 'f',
      type: i % 13 ? 'transfer' : 'approval',
      tags: i % 4 ? [] : [i % 5, (i + 1) % 5],
      attachments: [],
    })),
    transfers: Array.from({ length: 200 }, (_, k) => ({
      legs: [30 * k + 1, 30 * k + 3] as [number, number],
      kind: 'internal' as const,
      matchedBy: 'auto' as const,
    })),
  };
}

/** The job as export-jobs.ts builds it; `ledgerRows` counts its calls (the in-thread read). */
function jobOf(
  engine: Engine,
  ws: string,
  filter: TxFilter,
  convert: Convert,
  report: 'tax' | 'income',
  format: 'csv' | 'json',
  rowCount: number,
  snapshot?: { path: string; unchanged(): boolean },
) {
  const calls = { ledgerRows: 0 };
  const job = {
    exportId: 'exp_test',
    createdAt: '2024-01-01T00:00:00Z',
    format,
    reportType: report,
    filters: {},
    columns: [],
    transactionCount: rowCount,
    options: {
      currency: 'USD',
      date_format: 'YYYY-MM-DD',
      include_summary: true,
      include_logo: false,
      cost_basis: 'fifo',
      basis_scope: 'universal',
      fee_treatment: 'adjust',
    },
    ledgerRows: () => {
      calls.ledgerRows++;
      return ledgerRows(engine, ws, filter, convert);
    },
    ledgerSource: { ...ledgerSource(engine, ws, filter, convert), ...(snapshot ? { snapshot } : {}) },
    assets: () => new AssetTable(),
    taxBooks: () => ({ walletOrder: [], picks: new Map(), allocation: null }),
    onProgress: () => {},
  } as unknown as ExportJob;
  return { job, calls };
}

/** The compiled writer's file in one read transaction of `engine` (as export-jobs.ts reads), with a commit watch begun before it. */
async function workerFile(
  engine: Engine,
  ws: string,
  dir: string,
  args: { filter: TxFilter; convert: Convert; report: 'tax' | 'income'; format: 'csv' | 'json' },
  between?: () => void,
  rowCount = compiled.OFF_THREAD_ROWS,
) {
  const watch = watchCommits(engine.ledgerPath);
  engine.db.exec('BEGIN');
  try {
    engine.db.prepare('SELECT 1 FROM transactions LIMIT 1').get();
    between?.();
    const { job, calls } = jobOf(engine, ws, args.filter, args.convert, args.report, args.format, rowCount, {
      path: engine.ledgerPath,
      unchanged: watch.unchanged,
    });
    const path = join(dir, `worker.${args.format}`);
    const written = await compiled.writeTaxReport(job, path);
    return { written, calls, text: readFileSync(path, 'utf8') };
  } finally {
    engine.db.exec('COMMIT');
    watch.close();
  }
}

async function hereFile(
  engine: Engine,
  ws: string,
  dir: string,
  args: { filter: TxFilter; convert: Convert; report: 'tax' | 'income'; format: 'csv' | 'json' },
) {
  const path = join(dir, `here.${args.format}`);
  const written = await writeTaxReport(jobOf(engine, ws, args.filter, args.convert, args.report, args.format, 0).job, path);
  return { written, text: readFileSync(path, 'utf8') };
}

describe('tax and income reports read by the file worker', () => {
  test('equal the in-thread files, for both reports, both formats, a filter and a conversion', async () => {
    const { engine, ws, dir } = seed(ledger());
    try {
      engine.db.prepare(`UPDATE tags SET type = 'income' WHERE id IN ('tag_0', 'tag_3')`).run();
      const cases = [
        { filter: {}, convert: identity, report: 'tax', format: 'csv' },
        { filter: { direction: 'outflow', startTs: 1_600_000_000 + 400 * 86_000 }, convert: RATE, report: 'tax', format: 'json' },
        { filter: {}, convert: identity, report: 'income', format: 'csv' },
        { filter: { endTs: 1_600_000_000 + 1_000 * 86_000 }, convert: RATE, report: 'income', format: 'json' },
      ] as const;
      for (const args of cases) {
        const worker = await workerFile(engine, ws, dir, args);
        const here = await hereFile(engine, ws, dir, args);
        // The worker read every row: this thread never did.
        expect(worker.calls.ledgerRows).toBe(0);
        expect(worker.text).toBe(here.text);
        expect(worker.written).toEqual(here.written);
        expect(worker.text.length).toBeGreaterThan(20_000);
      }
    } finally {
      engine.close();
    }
  });

  test('a report of few rows over a long history: the worker reads the history', async () => {
    const { engine, ws, dir } = seed(ledger(compiled.OFF_THREAD_ROWS + 1_000));
    try {
      const last = engine.db.prepare('SELECT max(ts) FROM transactions').pluck().get() as number;
      const args = { filter: { startTs: last - 20 * 86_000 }, convert: identity, report: 'tax', format: 'csv' } as const;
      const reported = engine.db.prepare('SELECT count(*) FROM transactions WHERE ts >= ?').pluck().get(args.filter.startTs) as number;
      expect(reported).toBeLessThan(1_000);
      const worker = await workerFile(engine, ws, dir, args, undefined, reported);
      const here = await hereFile(engine, ws, dir, args);
      expect(worker.calls.ledgerRows).toBe(0);
      expect(worker.text).toBe(here.text);
      expect(worker.text.split('\r\n').length).toBeGreaterThan(10);
    } finally {
      engine.close();
    }
  });

  test('a file that cannot be written while the worker is mid-read: the export fails with the write error', async () => {
    // The first chunk is written after ≈ 5,000 rows; the worker is then a few batches further, far from the end.
    const { engine, ws, dir } = seed(ledger(compiled.OFF_THREAD_ROWS + 1_000));
    const watch = watchCommits(engine.ledgerPath);
    engine.db.exec('BEGIN');
    try {
      engine.db.prepare('SELECT 1 FROM transactions LIMIT 1').get();
      const { job } = jobOf(engine, ws, {}, identity, 'tax', 'csv', compiled.OFF_THREAD_ROWS, { path: engine.ledgerPath, unchanged: watch.unchanged });
      await expect(compiled.writeTaxReport(job, join(dir, 'no-such-dir', 'tax.csv'))).rejects.toThrow(/ENOENT/);
    } finally {
      engine.db.exec('COMMIT');
      watch.close();
      engine.close();
    }
  });

  test('a commit between the snapshot and the worker start: this thread reads the rows, the file is still the snapshot', async () => {
    const { engine, ws, dir } = seed(ledger());
    const other = openDb(engine.ledgerPath);
    try {
      const args = { filter: {}, convert: identity, report: 'tax', format: 'csv' } as const;
      const before = await hereFile(engine, ws, dir, args);
      // Every value changed after the job's snapshot: a worker reading its later snapshot would show it.
      const worker = await workerFile(engine, ws, dir, args, () => other.prepare('UPDATE transactions SET fiat_cents = fiat_cents + 1').run());
      expect(worker.calls.ledgerRows).toBe(1);
      expect(worker.text).toBe(before.text);
    } finally {
      other.close();
      engine.close();
    }
  });
});

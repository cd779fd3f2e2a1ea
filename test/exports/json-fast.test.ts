/**
 * The JSON written from SQL-built text (store/json-rows.ts) against JSON.stringify of the
 * Transaction objects: for random ledgers full of hostile text, every chain, tags and
 * attachments, and a few filters, the two files must be byte-identical.
 */
import { describe, test, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ledgerArb, seed } from './random-ledger.js';
import { getTransaction, streamTransactions, summaryOf } from '../../src/engine/transactions.js';
import { transactionJsonRows } from '../../src/store/json-rows.js';
import { readTagSets } from '../../src/store/tag-sets.js';
import { writeJson } from '../../src/exporters/json.js';
import type { ExportJob } from '../../src/exporters/types.js';
import type { TxFilter } from '../../src/core/filters.js';
import type { Engine } from '../../src/engine/engine.js';

const FILTERS: TxFilter[] = [{}, { direction: 'outflow' }, { hasTags: true }, { hasNotes: true }, { internal: true }, { spam: 'include' }];

function jobOf(engine: Engine, ws: string, filter: TxFilter, fast: boolean): ExportJob {
  const summary = summaryOf(engine, ws, filter);
  const job = {
    exportId: 'exp_test',
    createdAt: '2024-01-01T00:00:00Z',
    format: 'json',
    filters: {},
    columns: [],
    summary,
    transactionCount: summary.transaction_count,
    options: { currency: 'USD', date_format: 'YYYY-MM-DD', include_summary: true, include_logo: false, cost_basis: 'fifo' },
    rows: () => streamTransactions(engine, ws, filter, 'timestamp_asc'),
    onProgress: () => {},
  } as unknown as ExportJob;
  if (fast) job.unconverted = { db: engine.db, workspaceId: ws, filter, transaction: (id) => getTransaction(engine, ws, id) };
  return job;
}

/** Rows SQL printed itself, and rows it handed back by id, with the tag sets the writer reads. */
function sqlShare(engine: Engine, ws: string, filter: TxFilter) {
  const tagSets = readTagSets(engine.db, ws, summaryOf(engine, ws, filter).transaction_count, (tags) => JSON.stringify(tags));
  const rows = [...transactionJsonRows(engine.db, ws, filter, tagSets)];
  return { printed: rows.filter((r) => r.startsWith('{')).length, byId: rows.filter((r) => r.startsWith(' ')).length };
}

async function bothFiles(engine: Engine, ws: string, dir: string, filter: TxFilter) {
  await writeJson(jobOf(engine, ws, filter, true), join(dir, 'fast.json'));
  await writeJson(jobOf(engine, ws, filter, false), join(dir, 'js.json'));
  return { fast: readFileSync(join(dir, 'fast.json'), 'utf8'), js: readFileSync(join(dir, 'js.json'), 'utf8') };
}

describe('JSON fast path (text built by SQL)', () => {
  test('is byte-identical to JSON.stringify of the transactions for random ledgers and filters', async () => {
    let printed = 0;
    let byId = 0;
    await fc.assert(
      fc.asyncProperty(ledgerArb, fc.constantFrom(...FILTERS), async (ledger, filter) => {
        const { engine, ws, dir } = seed(ledger);
        try {
          const share = sqlShare(engine, ws, filter);
          printed += share.printed;
          byId += share.byId;
          const { fast, js } = await bothFiles(engine, ws, dir, filter);
          expect(fast).toBe(js);
        } finally {
          engine.close();
        }
      }),
      { numRuns: 150 },
    );
    // Both kinds of row must have been compared for the property to mean anything.
    expect(printed).toBeGreaterThan(120);
    expect(byId).toBeGreaterThan(80);
  });

  test('prints round, negative and tiny fiat values, hashes and explorer URLs as JSON.stringify does', async () => {
    const hash = `0x${'ab'.repeat(32)}`;
    const tx = (i: number, fiatCents: number | null, h: string) => ({
      wallet: 0,
      ts: 1_700_000_000 + i,
      amount: '1',
      fiatCents,
      direction: 'inflow' as const,
      symbol: 'ETH',
      notes: null,
      hash: h,
      chain: 'polygon' as const,
      tokenAddress: null,
      from: 'f',
      type: 'transfer',
      tags: [],
      attachments: [],
    });
    const cents = [0, 1, -1, 5, -5, 10, -10, 50, 100, -100, 123456, -123450, 999_999_999_999_999];
    const { engine, ws, dir } = seed({
      labels: ['a', 'b', 'c'],
      tagNames: ['t0', 't1', 't2', 't3', 't4'],
      txs: [...cents.map((c, i) => tx(i, c, `${hash.slice(0, -1)}${i % 10}`)), tx(99, null, `${hash}0`)],
    });
    try {
      expect(sqlShare(engine, ws, {})).toEqual({ printed: cents.length + 1, byId: 0 });
      const { fast, js } = await bothFiles(engine, ws, dir, {});
      expect(fast).toBe(js);
      expect(js).toContain('"fiat_value":-1234.5,');
      expect(js).toContain(`"explorer_url":"https://polygonscan.com/tx/${hash.slice(0, -1)}0"`);
      // 67 characters: not a transaction hash, so no URL.
      expect(js).toMatch(/"tx_hash":"0x(ab){32}0".*?"explorer_url":""/);
    } finally {
      engine.close();
    }
  });
});

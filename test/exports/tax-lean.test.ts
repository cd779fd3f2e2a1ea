/**
 * The tax and income reports from the engine's lean ledger reader (engine/ledger-rows.ts: only
 * the columns the rules read, straight from SQL) against the same reports from the API's
 * Transaction objects (streamTransactions, the rows every other export reads): for random
 * ledgers (own transfers of one and two legs, spam, income tags of any name), filters, methods,
 * scopes and a currency conversion, the CSV and JSON files must be byte-identical.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ledgerArb, seed } from './random-ledger.js';
import { ledgerFilter, ledgerRows } from '../../src/engine/ledger-rows.js';
import { streamTransactions } from '../../src/engine/transactions.js';
import { identity, type Convert } from '../../src/engine/rates.js';
import { writeTaxReport } from '../../src/exporters/tax-report.js';
import type { ExportJob } from '../../src/exporters/types.js';
import { AssetTable } from '../../src/accounting/assets.js';
import { centsToNumber } from '../../src/core/money.js';
import { withSpamResolved } from '../../src/store/transactions.js';
import type { TxFilter } from '../../src/core/filters.js';
import type { TagType, Transaction } from '../../src/core/types.js';
import type { Engine } from '../../src/engine/engine.js';
import { ledgerRowOf } from '../helpers/ledger-row.js';

/** A rate with a fraction, so converted cents round. */
const RATE: Convert = (cents) => (cents === null ? null : Math.round(cents * 1.37));

/** The reference: hydrated Transactions, converted as the other exports convert them, marked by the filter's own rows. */
function* fromTransactions(engine: Engine, ws: string, filter: TxFilter, convert: Convert) {
  const types = new Map(
    engine.db
      .prepare('SELECT id, type FROM tags WHERE workspace_id = ?')
      .all(ws)
      .map((t: any) => [t.id as string, t.type as TagType]),
  );
  const selected = new Set([...streamTransactions(engine, ws, filter, 'timestamp_asc')].map((tx) => tx.id));
  const convertTx = (tx: Transaction) => {
    const cents = convert(tx.fiat_value === null ? null : Math.round(tx.fiat_value * 100), Date.parse(tx.timestamp) / 1000);
    return { ...tx, fiat_value: cents === null ? null : centsToNumber(cents) };
  };
  // Own transfers' other legs, wherever they are (the lean reader finds them past the filter's end too).
  const legs = new Map(
    [...streamTransactions(engine, ws, { spam: 'include' }, 'timestamp_asc')].filter((tx) => tx.transfer).map((tx) => [tx.id, convertTx(tx)]),
  );
  for (const tx of streamTransactions(engine, ws, ledgerFilter(filter), 'timestamp_asc')) {
    yield {
      tx: ledgerRowOf(
        convertTx(tx),
        (id) => types.get(id) ?? null,
        (id) => legs.get(id),
      ),
      reported: selected.has(tx.id),
    };
  }
}

function jobOf(
  _engine: Engine,
  _ws: string,
  rows: () => ExportJob['ledgerRows'] extends () => infer R ? R : never,
  format: 'csv' | 'json',
  report: 'tax' | 'income',
  options: Partial<ExportJob['options']>,
): ExportJob {
  return {
    exportId: 'exp_test',
    createdAt: '2024-01-01T00:00:00Z',
    format,
    reportType: report,
    filters: {},
    columns: [],
    transactionCount: 0,
    options: {
      currency: 'USD',
      date_format: 'YYYY-MM-DD',
      include_summary: true,
      include_logo: false,
      cost_basis: 'fifo',
      fee_treatment: 'adjust',
      ...options,
    },
    ledgerRows: rows,
    assets: () => new AssetTable(),
    taxBooks: () => ({ walletOrder: [], picks: new Map(), allocation: null }),
    onProgress: () => {},
  } as unknown as ExportJob;
}

/** More own transfers than the random ledger makes, among its first rows (the ledger drops those that do not fit). */
const transfersArb = fc.array(
  fc.record({ legs: fc.tuple(fc.nat(5), fc.nat(5)), kind: fc.constantFrom('internal', 'bridge'), matchedBy: fc.constantFrom('auto', 'user', 'rule') }),
  { minLength: 1, maxLength: 6 },
);

const filterArb = fc.record(
  {
    endTs: fc.integer({ min: 0, max: 4_102_444_800 }),
    startTs: fc.integer({ min: 0, max: 4_102_444_800 }),
    wallet: fc.nat(2),
    direction: fc.constantFrom('inflow' as const, 'outflow' as const),
    spam: fc.constantFrom('include' as const, 'exclude' as const),
  },
  { requiredKeys: [] },
);

describe('tax and income reports from the lean ledger reader', () => {
  test('are byte-identical to those from Transaction objects for random ledgers, filters and options', async () => {
    let incomeLinks = 0;
    let transferLegs = 0;
    await fc.assert(
      fc.asyncProperty(
        ledgerArb,
        transfersArb,
        fc.uniqueArray(fc.nat(4), { maxLength: 5 }),
        filterArb,
        fc.constantFrom('csv' as const, 'json' as const),
        fc.constantFrom('tax' as const, 'income' as const),
        fc.record({
          cost_basis: fc.constantFrom('fifo' as const, 'lifo' as const, 'hifo' as const),
          basis_scope: fc.constantFrom('wallet' as const, 'universal' as const, undefined),
          fee_treatment: fc.constantFrom('adjust' as const, 'separate' as const),
          include_summary: fc.boolean(),
        }),
        fc.boolean(),
        async (generated, transfers, incomeTags, f, format, report, options, convertIt) => {
          const { engine, ws, dir } = seed({ ...generated, transfers: [...transfers, ...(generated.transfers ?? [])] });
          try {
            for (const i of incomeTags) engine.db.prepare(`UPDATE tags SET type = 'income' WHERE id = ?`).run(`tag_${i}`);
            const wallets = engine.db.prepare('SELECT id FROM wallets WHERE workspace_id = ? ORDER BY id').pluck().all(ws) as string[];
            const { wallet, ...rest } = f;
            const filter = withSpamResolved(engine.db, ws, { ...rest, ...(wallet === undefined ? {} : { walletIds: [wallets[wallet]!] }) });
            const convert = convertIt ? RATE : identity;
            const lean = join(dir, `lean.${format}`);
            const reference = join(dir, `reference.${format}`);
            await writeTaxReport(
              jobOf(engine, ws, () => ledgerRows(engine, ws, filter, convert), format, report, options),
              lean,
            );
            await writeTaxReport(
              jobOf(engine, ws, () => fromTransactions(engine, ws, filter, convert), format, report, options),
              reference,
            );
            const [a, b] = [readFileSync(lean, 'utf8'), readFileSync(reference, 'utf8')];
            expect(a).toBe(b);
            incomeLinks += engine.db
              .prepare(`SELECT count(*) FROM transaction_tags x JOIN tags g ON g.id = x.tag_id WHERE g.type = 'income'`)
              .pluck()
              .get() as number;
            transferLegs += engine.db.prepare('SELECT count(*) FROM transactions WHERE transfer_id IS NOT NULL').pluck().get() as number;
          } finally {
            engine.close();
          }
        },
      ),
      { numRuns: 150 },
    );
    // The comparison means little unless income tags and own transfers came up.
    expect(incomeLinks).toBeGreaterThan(100);
    expect(transferLegs).toBeGreaterThan(100);
  });
});

/**
 * `rollforward_difference` runs the tax ledger over the wallets where a difference can arise only
 * (checks/rollforward.ts): it must find exactly what the roll-forward over every wallet finds.
 * Generated ledgers (fast-check): wallets, tokens of other decimals, rows with and without a
 * value, spam, ties in time, balances that go below zero inside a second or a day and recover,
 * own transfers (both legs, one leg, less or more received), over periods on and off day bounds.
 */
import { newRow } from '../helpers/new-row.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { insertTransfer } from '../../src/store/transfers.js';
import { withSpamResolved } from '../../src/store/transactions.js';
import { rollforwardDifferences } from '../../src/checks/rollforward.js';
import { ledgerRows, loadAssetTable } from '../../src/engine/ledger-rows.js';
import { identity } from '../../src/engine/rates.js';
import { RollForward } from '../../src/accounting/rollforward.js';
import { quantityText } from '../../src/accounting/quantity.js';
import type { Period } from '../../src/checks/kinds.js';
import { fromBaseUnits } from '../../src/core/money.js';

const DAY = 86_400;
const T0 = Date.parse('2024-03-01T00:00:00Z') / 1000;
const TOKENS = [
  { symbol: 'ETH', address: null, decimals: 18 },
  { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
];

const genRow = fc.record({
  wallet: fc.integer({ min: 0, max: 3 }),
  token: fc.integer({ min: 0, max: 1 }),
  // Few distinct times, so rows tie within a second and a day.
  at: fc.oneof(fc.integer({ min: 0, max: 12 * DAY }), fc.constantFrom(0, 60, DAY / 2, DAY, 5 * DAY + 1)),
  units: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 4n })),
  inflow: fc.boolean({ freq: 2 }).map((b) => !b),
  priced: fc.boolean({ freq: 12 }).map((b) => !b),
  spam: fc.boolean({ freq: 15 }),
});
/** Own transfers: indexes of a row pair (an outflow and an inflow of the same token) or of one row. */
const genLinks = fc.array(fc.tuple(fc.nat(), fc.option(fc.nat(), { freq: 4 })), { maxLength: 4 });

const PERIODS: Period[] = [{}, { startTs: T0 + 3 * DAY }, { startTs: T0 + 2 * DAY + 45_296, endTs: T0 + 9 * DAY + 600 }, { endTs: T0 + 5 * DAY }];

function ledger(rows: fc.Infer<typeof genRow>[], links: [number, number | null][]): { engine: Engine; ws: string } {
  const { engine, ws } = tempEngine();
  const wallets = engine.write(() =>
    ['Main', 'Cold', 'Trading', 'Vault'].map(
      (label, i) => insertNewWallet(engine, ws, { address: `0x${String(i + 1).padStart(40, 'c')}`, chain: 'ethereum', label }).id,
    ),
  );
  const news: NewTransaction[] = rows.map((r, i) => {
    const token = TOKENS[r.token]!;
    const amount = fromBaseUnits(r.units, token.decimals);
    const hash = `0x${i.toString(16).padStart(64, '0')}`;
    return newRow({
      id: `tx_${hash.slice(-20)}`,
      workspace_id: ws,
      wallet_id: wallets[r.wallet]!,
      tx_hash: hash,
      token,
      amount,
      fiat_cents: r.priced ? Number(r.units % 10_000n) + 1 : null,
      direction: r.inflow ? 'inflow' : 'outflow',
      ts: T0 + r.at,
      spam: r.spam ? 1 : 0,
    });
  });
  engine.write(() => {
    insertTransactions(engine.db, news, 0);
    const used = new Set<number>();
    links.forEach(([a, b], n) => {
      const out = a % news.length;
      const into = b === null ? null : b % news.length;
      if (used.has(out) || (into !== null && (used.has(into) || into === out))) return;
      // Legs of one transfer: one outflow, one inflow, of one token.
      if (into !== null && (news[out]!.direction === news[into]!.direction || news[out]!.token_symbol !== news[into]!.token_symbol)) return;
      used.add(out);
      if (into !== null) used.add(into);
      insertTransfer(engine.db, { id: `tr_${n}`, workspace_id: ws, kind: 'internal', matched_by: 'user', created_at: '2024-01-01T00:00:00Z' }, [
        news[out]!.id,
        ...(into === null ? [] : [news[into]!.id]),
      ]);
    });
  });
  return { engine, ws };
}

/** The roll-forward of every wallet, as the check ran it before it chose wallets. */
function everyWallet(engine: Engine, ws: string, p: Period) {
  const assets = loadAssetTable(engine);
  const roll = new RollForward({ method: 'fifo', scope: 'wallet', assets }, null);
  const touched = new Set<string>();
  const filter = withSpamResolved(engine.db, ws, p.endTs === undefined ? {} : { endTs: p.endTs });
  for (const { tx } of ledgerRows(engine, ws, filter, identity)) {
    roll.add(tx);
    if (p.startTs !== undefined && Date.parse(tx.timestamp) / 1000 >= p.startTs) touched.add(`${tx.wallet_id} ${assets.assetOf(tx.chain, tx.token).key}`);
  }
  const off = roll.rows().filter((r) => r.difference.units !== 0n && (p.startTs === undefined || touched.has(`${r.scope} ${r.asset.key}`)));
  return {
    count: off.length,
    examples: off.slice(0, 5).map((r) => ({
      wallet_id: r.scope,
      wallet_label: r.wallet_label,
      asset: r.asset.symbol,
      balance: quantityText(r.balance),
      closing_quantity: quantityText(r.flows.closing.quantity),
      difference: quantityText(r.difference),
    })),
  };
}

describe('rollforward_difference over the wallets that can differ', () => {
  it('finds what the roll-forward of every wallet finds', () => {
    let found = 0;
    fc.assert(
      fc.property(fc.array(genRow, { minLength: 1, maxLength: 40 }), genLinks, (rows, links) => {
        const { engine, ws } = ledger(rows, links);
        try {
          for (const p of PERIODS) {
            const want = everyWallet(engine, ws, p);
            found += want.count;
            expect(rollforwardDifferences(engine, ws, p, 5)).toEqual(want);
          }
        } finally {
          engine.close();
        }
      }),
      { numRuns: 40 },
    );
    // The generator makes differences often enough for the comparison to mean something.
    expect(found).toBeGreaterThan(15);
  });

  it('a ledger where every inflow has a value and no balance goes below zero runs no wallet', () => {
    const rows = [
      { wallet: 0, token: 0, at: 0, units: 5n, inflow: true, priced: true, spam: false },
      { wallet: 0, token: 0, at: DAY, units: 3n, inflow: false, priced: true, spam: false },
      { wallet: 1, token: 1, at: 60, units: 7n, inflow: true, priced: true, spam: false },
    ];
    const { engine, ws } = ledger(rows, []);
    // A walk would fail: the ledger's rows cannot be read.
    const prepare = engine.db.prepare.bind(engine.db);
    engine.db.prepare = ((sql: string) => {
      if (sql.includes('json_array(t.wallet_id')) throw new Error('the ledger was walked');
      return prepare(sql);
    }) as typeof engine.db.prepare;
    try {
      expect(rollforwardDifferences(engine, ws, {}, 5)).toEqual({ count: 0, examples: [] });
    } finally {
      engine.db.prepare = prepare;
      engine.close();
    }
  });
});

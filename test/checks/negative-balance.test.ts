/**
 * `negative_balance` walks days (store/balance-days.ts) and reads rows only where a day may go
 * below zero; it must name exactly what a plain walk over every row names. Generated ledgers
 * (fast-check) with wallets, look-alike tokens of other decimals, native coins, zero and spam rows,
 * ties in time, days of zero rows only and balances that go negative and recover, checked over
 * periods on and off day bounds; the table kept by inserts in batches equals one filled at once,
 * and follows a wallet's removal.
 */
import { newRow } from '../helpers/new-row.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet, removeWallet } from '../../src/engine/wallets.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { ensureBalanceDays, balanceDaysComplete } from '../../src/store/balance-days.js';
import { negativeBalances, EXAMPLES, type Period } from '../../src/checks/kinds.js';
import { runChecks } from '../../src/checks/index.js';
import { fromBaseUnits, toBaseUnits } from '../../src/core/money.js';
import { isoSeconds } from '../../src/core/clock.js';

const DAY = 86_400;
const T0 = Date.parse('2024-03-01T00:00:00Z') / 1000;
const TOKENS = [
  { symbol: 'ETH', address: null, decimals: 18 },
  { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
  { symbol: 'USDC', address: '0x00000000000000000000000000000000000000b2', decimals: 2 },
];

interface GenRow {
  wallet: number;
  token: number;
  /** Seconds from T0: 0 to 20 days, with few distinct values so times tie. */
  at: number;
  units: bigint;
  inflow: boolean;
  spam: boolean;
}

const genRow = fc.record({
  wallet: fc.integer({ min: 0, max: 2 }),
  token: fc.integer({ min: 0, max: 2 }),
  at: fc.oneof(fc.integer({ min: 0, max: 20 * DAY }), fc.constantFrom(0, DAY / 2, DAY, 5 * DAY + 1, 9 * DAY - 1)),
  units: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 4n }), fc.bigInt({ min: 1n, max: 10n ** 30n })),
  inflow: fc.boolean(),
  spam: fc.boolean({ freq: 8 }),
});

function ledger(): { engine: Engine; ws: string; wallets: string[] } {
  const { engine, ws } = tempEngine();
  const wallets = engine.write(() =>
    ['Main', 'Cold', 'Trading'].map(
      (label, i) => insertNewWallet(engine, ws, { address: `0x${String(i + 1).padStart(40, 'c')}`, chain: 'ethereum', label }).id,
    ),
  );
  return { engine, ws, wallets };
}

function insert(engine: Engine, ws: string, wallets: string[], rows: GenRow[], offset: number): void {
  const news: NewTransaction[] = rows.map((r, i) => {
    const token = TOKENS[r.token]!;
    const amount = fromBaseUnits(r.units, token.decimals);
    const hash = `0x${(offset + i).toString(16).padStart(64, '0')}`;
    return newRow({
      id: `tx_${hash.slice(-20)}`,
      workspace_id: ws,
      wallet_id: wallets[r.wallet]!,
      tx_hash: hash,
      token,
      amount,
      direction: r.inflow ? 'inflow' : 'outflow',
      ts: T0 + r.at,
      spam: r.spam ? 1 : 0,
    });
  });
  engine.write(() => insertTransactions(engine.db, news, 0));
}

/** The plain walk: every row up to the period's end in (wallet, time, id) order, a BigInt sum per token. */
function rowWalk(engine: Engine, ws: string, p: Period) {
  const rows = engine.db
    .prepare(
      `SELECT t.id, t.ts, t.wallet_id, w.label, t.token_symbol, t.token_address, t.amount, t.token_decimals, t.direction FROM transactions t
       JOIN wallets w ON w.id = t.wallet_id WHERE t.workspace_id = ? AND t.ts < ? ORDER BY t.wallet_id, t.ts, t.id`,
    )
    .all(ws, p.endTs ?? Number.MAX_SAFE_INTEGER) as {
    id: string;
    ts: number;
    wallet_id: string;
    label: string;
    token_symbol: string;
    token_address: string | null;
    amount: string;
    token_decimals: number;
    direction: string;
  }[];
  const sums = new Map<string, bigint>();
  const found = new Map<string, Record<string, unknown> & { ts: number; id: string }>();
  for (const r of rows) {
    const key = `${r.wallet_id} ${r.token_symbol} ${r.token_address}`;
    const units = toBaseUnits(r.amount, 18) * (r.direction === 'inflow' ? 1n : -1n);
    const sum = (sums.get(key) ?? 0n) + units;
    sums.set(key, sum);
    if (sum < 0n && r.ts >= (p.startTs ?? -Infinity) && !found.has(key)) {
      found.set(key, {
        ts: r.ts,
        id: r.id,
        wallet_id: r.wallet_id,
        wallet_label: r.label,
        token: { symbol: r.token_symbol, address: r.token_address },
        transaction_id: r.id,
        timestamp: isoSeconds(r.ts),
        balance: fromBaseUnits(sum, 18),
      });
    }
  }
  const examples = [...found.values()]
    .sort((a, b) => a.ts - b.ts || (a.id < b.id ? -1 : 1))
    .slice(0, EXAMPLES)
    .map(({ ts: _ts, id: _id, ...rest }) => rest);
  return { count: found.size, examples };
}

const PERIODS: Period[] = [
  {},
  { startTs: T0 + 3 * DAY },
  { startTs: T0 + 2 * DAY + 45_296, endTs: T0 + 11 * DAY + 600 },
  { endTs: T0 + 7 * DAY },
  { startTs: T0 + 5 * DAY + 1, endTs: T0 + 5 * DAY + 2 },
  { startTs: T0 + 30 * DAY },
];

describe('negative_balance by days', () => {
  it('names what the walk over every row names, for any ledger and period; inserted in batches or filled at once', () => {
    fc.assert(
      fc.property(fc.array(fc.array(genRow, { maxLength: 60 }), { minLength: 1, maxLength: 4 }), (batches) => {
        const { engine, ws, wallets } = ledger();
        try {
          let offset = 0;
          for (const batch of batches) {
            insert(engine, ws, wallets, batch, offset);
            offset += batch.length;
          }
          const kept = engine.db.prepare('SELECT * FROM balance_days ORDER BY 1, 2, 3, 4, 5').all();
          for (const p of PERIODS) expect(negativeBalances(engine.db, ws, p)).toEqual(rowWalk(engine, ws, p));

          // An older ledger: the table filled from its rows on first use equals the one inserts kept.
          engine.db.exec("DELETE FROM balance_days; DELETE FROM settings WHERE key = 'balance_days'");
          engine.write(() => ensureBalanceDays(engine.db));
          expect(engine.db.prepare('SELECT * FROM balance_days ORDER BY 1, 2, 3, 4, 5').all()).toEqual(kept);

          removeWallet(engine, ws, wallets[0]!);
          expect(engine.db.prepare('SELECT count(*) FROM balance_days WHERE wallet_id = ?').pluck().get(wallets[0])).toBe(0);
          for (const p of PERIODS) expect(negativeBalances(engine.db, ws, p)).toEqual(rowWalk(engine, ws, p));
        } finally {
          engine.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a ledger with rows from before the table: txa check fills it once, then finds the same', () => {
    const { engine, ws, wallets } = ledger();
    insert(
      engine,
      ws,
      wallets,
      [
        { wallet: 0, token: 1, at: 0, units: 5_000_000n, inflow: true, spam: false },
        { wallet: 0, token: 1, at: 3 * DAY, units: 7_250_000n, inflow: false, spam: false },
      ],
      0,
    );
    engine.db.exec("DELETE FROM balance_days; DELETE FROM settings WHERE key = 'balance_days'");
    expect(balanceDaysComplete(engine.db)).toBe(false);
    const report = runChecks(engine, ws, {}, ['untagged', 'unpriced', 'unmatched_transfer', 'assertion_failed', 'failed_export', 'rollforward_difference']);
    expect(balanceDaysComplete(engine.db)).toBe(true);
    expect(report.findings).toEqual([{ kind: 'negative_balance', ...rowWalk(engine, ws, {}) }]);
    expect(report.findings[0]!.examples[0]).toMatchObject({ balance: '-2.25', token: { symbol: 'USDC', address: TOKENS[1]!.address } });
    engine.close();
  });

  it('a new ledger is complete from the start', () => {
    const { engine } = ledger();
    expect(balanceDaysComplete(engine.db)).toBe(true);
    engine.close();
  });
});

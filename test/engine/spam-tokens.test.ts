/**
 * Token verdicts on a real ledger (engine/spam-tokens.ts, docs/sync.md "Spam"): a token marked
 * spam takes its rows out of own transfers, and an import follows the verdicts: the user's mark
 * flags rows of any format, `unspam` lets the lookalike rule pass.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { getTransaction } from '../../src/engine/transactions.js';
import { updateTransaction } from '../../src/engine/transaction-edits.js';
import { markTokens } from '../../src/engine/spam-tokens.js';
import { transactionHistory } from '../../src/engine/history.js';
import type { ImportRecord } from '../../src/importers/types.js';

const A = `0x${'a'.repeat(40)}`;
const B = `0x${'b'.repeat(40)}`;
const TOKEN = { symbol: 'PEPE', address: `0x${'7'.repeat(40)}`, decimals: 18 };
const HASH = `0x${'1'.repeat(64)}`;

let engine: Engine;
let ws: string;
let wallets: { a: string; b: string };

beforeEach(() => {
  ({ engine, ws } = tempEngine('pro'));
  wallets = engine.write(() => ({
    a: insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id,
    b: insertNewWallet(engine, ws, { address: B, chain: 'ethereum', label: 'B' }).id,
  }));
});
afterEach(() => engine.close());

const record = (direction: 'inflow' | 'outflow', extra: Partial<ImportRecord> = {}): ImportRecord => ({
  line: 1,
  tx_hash: HASH,
  from_address: A,
  to_address: B,
  token: TOKEN,
  amount: '5',
  fiat_value: '10',
  direction,
  type: 'transfer',
  timestamp: 1_740_000_000,
  notes: null,
  ...extra,
});

/** The token moved from A to B: one own transfer of two legs. */
function moveBetweenOwnWallets(): [string, string] {
  importRecords(engine, ws, [record('outflow')], { walletId: wallets.a, format: 'json' });
  importRecords(engine, ws, [record('inflow')], { walletId: wallets.b, format: 'json' });
  const ids = engine.db.prepare('SELECT id FROM transactions ORDER BY direction DESC').pluck().all() as string[];
  expect(getTransaction(engine, ws, ids[0]!).transfer).toMatchObject({ counterpart_id: ids[1] });
  return [ids[0]!, ids[1]!];
}

describe('token verdicts', () => {
  it('a token marked spam leaves the own transfers its rows were legs of, each leg with its event', () => {
    const [out, inn] = moveBetweenOwnWallets();
    const [mark] = markTokens(engine, ws, [{ chain: 'ethereum', address: TOKEN.address }], true);
    expect(mark!.changed).toBe(2);
    for (const id of [out, inn]) {
      const tx = getTransaction(engine, ws, id);
      expect([tx.spam, tx.transfer]).toEqual([true, null]);
      const changes = transactionHistory(engine, ws, id).map((e) => Object.keys(e.changes ?? {}).sort());
      expect(changes).toContainEqual(expect.arrayContaining(['spam']));
      expect(changes.flat()).toContain('transfer');
    }
    expect(engine.db.prepare('SELECT count(*) FROM transfers').pluck().get()).toBe(0);
  });

  it('a row flagged by hand leaves its own transfer too, and its counterpart tells of it', () => {
    const [out, inn] = moveBetweenOwnWallets();
    const tx = updateTransaction(engine, ws, out, { spam: true });
    expect([tx.spam, tx.transfer]).toEqual([true, null]);
    expect(getTransaction(engine, ws, inn).transfer).toBeNull();
    expect(transactionHistory(engine, ws, inn).at(-1)!.changes).toMatchObject({ transfer: { new: null } });
    expect(transactionHistory(engine, ws, out).at(-1)!.changes).toMatchObject({ spam: { old: false, new: true }, transfer: { new: null } });
  });

  it("an import flags the rows of a marked token whatever the format, and no rule's verdict is needed", () => {
    markTokens(engine, ws, [{ chain: 'ethereum', address: TOKEN.address }], true);
    importRecords(engine, ws, [record('inflow', { from_address: `0x${'d'.repeat(40)}` })], { walletId: wallets.b, format: 'json' });
    expect(engine.db.prepare('SELECT spam FROM transactions').pluck().all()).toEqual([1]);
  });

  it('a token marked not spam passes the lookalike rule in later imports', () => {
    const copy = { symbol: 'USDC', address: `0x${'e'.repeat(40)}`, decimals: 6 };
    markTokens(engine, ws, [{ chain: 'ethereum', address: copy.address }], false);
    importRecords(engine, ws, [record('inflow', { token: copy, spam: 'lookalike' }), record('inflow', { token: copy, amount: '0', spam: 'poisoning' })], {
      walletId: wallets.b,
      format: 'etherscan',
    });
    // The zero-value transfer is still poisoning: the verdict is about the token, not the transfer.
    expect(engine.db.prepare('SELECT amount, spam FROM transactions ORDER BY amount').all()).toEqual([
      { amount: '0', spam: 1 },
      { amount: '5', spam: 0 },
    ]);
  });
});

describe('a verdict on a token with many rows', () => {
  /** The daily and monthly rollups, less cells counted down to nothing, and the same sums over the rows that are not spam. */
  const rollups = (table: string, period: string) =>
    engine.db
      .prepare(
        `SELECT ${period} AS p, wallet_id, token_symbol, direction, tx_count AS n, fiat_cents AS cents FROM ${table} WHERE tx_count <> 0 OR fiat_cents <> 0 ORDER BY 1, 2, 3, 4`,
      )
      .all();
  const fromRows = (period: string) =>
    engine.db
      .prepare(
        `SELECT ${period} AS p, wallet_id, token_symbol, direction, count(*) AS n, ifnull(sum(fiat_cents), 0) AS cents FROM transactions WHERE spam = 0 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      )
      .all();
  const expectRollupsExact = () => {
    expect(rollups('rollup_daily', 'day')).toEqual(fromRows('ts / 86400'));
    expect(rollups('rollup_monthly', 'month')).toEqual(fromRows("unixepoch(ts, 'unixepoch', 'start of month') / 86400"));
  };

  it('flags every row in one pass: rollups exact, own transfers left, one event per row changed, and back', () => {
    // 150 moves of the token between the two wallets (300 legs, matched as own transfers) over
    // 150 days, rows of ETH beside them, and a row flagged by hand, which the verdict leaves alone.
    const moves = Array.from({ length: 150 }, (_, i) => ({
      tx_hash: `0x${(i + 1).toString(16).padStart(64, '0')}`,
      timestamp: 1_700_000_000 + i * 86_400,
      amount: `${i + 1}`,
      fiat_value: `${i}.25`,
    }));
    importRecords(
      engine,
      ws,
      moves.map((m, i) => record('outflow', { ...m, line: i + 1 })),
      { walletId: wallets.a, format: 'json' },
    );
    importRecords(
      engine,
      ws,
      moves.map((m, i) => record('inflow', { ...m, line: i + 1 })),
      { walletId: wallets.b, format: 'json' },
    );
    const eth = { symbol: 'ETH', address: null, decimals: 18 };
    importRecords(
      engine,
      ws,
      moves.map((m, i) => record('inflow', { ...m, line: i + 1, token: eth, from_address: `0x${'d'.repeat(40)}` })),
      { walletId: wallets.b, format: 'json' },
    );
    const byHand = engine.db.prepare('SELECT id FROM transactions WHERE token_symbol = ? ORDER BY ts LIMIT 1').pluck().get('PEPE') as string;
    updateTransaction(engine, ws, byHand, { spam: true });
    // Flagged by hand, the row left its transfer.
    expect(engine.db.prepare('SELECT count(*) FROM transfers').pluck().get()).toBe(149);
    const events = () => engine.db.prepare("SELECT count(*) FROM events WHERE type = 'transaction.updated'").pluck().get() as number;
    const before = events();
    const handHistory = transactionHistory(engine, ws, byHand).length;

    const [mark] = markTokens(engine, ws, [{ chain: 'ethereum', address: TOKEN.address }], true);
    expect(mark!.changed).toBe(299);
    expect(engine.db.prepare('SELECT token_symbol, spam, count(*) AS n FROM transactions GROUP BY 1, 2 ORDER BY 1, 2').all()).toEqual([
      { token_symbol: 'ETH', spam: 0, n: 150 },
      { token_symbol: 'PEPE', spam: 1, n: 300 },
    ]);
    expect(engine.db.prepare('SELECT count(*) FROM transfers').pluck().get()).toBe(0);
    expect(engine.db.prepare('SELECT count(*) FROM transactions WHERE transfer_id IS NOT NULL').pluck().get()).toBe(0);
    // One event per row changed (spam and transfer in one), none for the row flagged by hand.
    expect(events() - before).toBe(299);
    expect(transactionHistory(engine, ws, byHand)).toHaveLength(handHistory);
    expectRollupsExact();

    const [back] = markTokens(engine, ws, [{ chain: 'ethereum', address: TOKEN.address }], false);
    expect(back!.changed).toBe(299);
    expect(engine.db.prepare('SELECT count(*) FROM transactions WHERE spam = 1').pluck().get()).toBe(1);
    expect(getTransaction(engine, ws, byHand).spam).toBe(true);
    expectRollupsExact();
  });
});

describe('finding a token’s rows (migration 17)', () => {
  it('goes through the index of rows by token address, not every row of the chain', () => {
    const plan = engine.db
      .prepare(`EXPLAIN QUERY PLAN SELECT t.id FROM transactions t LEFT JOIN spam_reasons r ON r.transaction_id = t.id
        WHERE t.workspace_id = ? AND t.chain = ? AND t.token_address = ? AND t.spam = 0 AND r.reason IS NULL ORDER BY +t.ts, t.id`)
      .all(ws, 'ethereum', TOKEN.address) as { detail: string }[];
    expect(plan[0]!.detail).toContain('USING INDEX tx_by_token_address (workspace_id=? AND chain=? AND token_address=?)');
  });
});

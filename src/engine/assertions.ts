/**
 * Balance assertions (CONTRACT §10): `txa wallet assert ID --token T --balance AMOUNT --at DATE`
 * records that the wallet held exactly AMOUNT of T at the end of DATE (UTC); `txa check` verifies
 * them (src/checks/). Local only: the API has no route for them.
 */
import type { Engine } from './engine.js';
import { requireWallet } from './wallets.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { DAY_SECONDS, requireDay } from '../core/dates.js';
import { MAX_AMOUNT_DIGITS, integerDigits, normalizeDecimal, scaleOf } from '../core/money.js';
import type { BalanceAssertion, Deleted } from '../core/types.js';

export interface AssertionInput {
  token?: string;
  balance?: string;
  at?: string;
}

interface TokenRow {
  symbol: string;
  address: string | null;
  decimals: number;
}

const invalid = (field: string, message: string) => new TxaError('INVALID_FIELD', message, { field });

/** The wallet's token named by symbol (case-insensitively) or by contract address; ambiguous or unknown → INVALID_FIELD token. */
function resolveToken(engine: Engine, walletId: string, token: string): TokenRow {
  const rows = engine.db
    .prepare(
      `SELECT DISTINCT token_symbol AS symbol, token_address AS address, token_decimals AS decimals FROM transactions
       WHERE wallet_id = ? AND (token_symbol = ? COLLATE NOCASE OR token_address = lower(?))`,
    )
    .all(walletId, token, token) as TokenRow[];
  if (rows.length === 1) return rows[0]!;
  if (rows.length === 0) {
    const held = engine.db.prepare('SELECT DISTINCT token_symbol FROM transactions WHERE wallet_id = ? ORDER BY 1').pluck().all(walletId) as string[];
    throw invalid('token', `the wallet has no token '${token}'${held.length ? `; it has ${held.join(', ')}` : ' (it has no transactions)'}`);
  }
  const addresses = rows.map((r) => r.address ?? '(native)').join(', ');
  throw invalid('token', `'${token}' names several tokens of the wallet (${addresses}); pass the token's contract address instead`);
}

/** A non-negative exact decimal (the token's decimals are checked once the token is known). */
function parseBalance(text: string): string {
  const value = normalizeDecimal(text);
  if (value === null) throw invalid('balance', `balance must be a number in token units, got '${text}'`);
  if (value.startsWith('-')) throw invalid('balance', `balance cannot be negative, got '${text}'`);
  if (integerDigits(value) > MAX_AMOUNT_DIGITS) throw invalid('balance', `balance has more than ${MAX_AMOUNT_DIGITS} integer digits`);
  return value;
}

interface AssertionRow {
  id: string;
  wallet_id: string;
  wallet_label: string;
  token_symbol: string;
  token_address: string | null;
  balance: string;
  day: string;
  created_at: string;
}

const SELECT = `SELECT a.id, a.wallet_id, w.label AS wallet_label, a.token_symbol, a.token_address, a.balance, a.day, a.created_at
  FROM balance_assertions a JOIN wallets w ON w.id = a.wallet_id`;

function toAssertion(r: AssertionRow): BalanceAssertion {
  return {
    id: r.id,
    wallet_id: r.wallet_id,
    wallet_label: r.wallet_label,
    token: { symbol: r.token_symbol, address: r.token_address },
    balance: r.balance,
    at: r.day,
    created_at: r.created_at,
  };
}

/** Records an assertion (asserting the same wallet, token and day again replaces its balance). Every check comes before the write. */
export function assertBalance(engine: Engine, workspaceId: string, walletId: string, input: AssertionInput): BalanceAssertion {
  for (const field of ['token', 'balance', 'at'] as const) {
    if (!input[field]?.trim()) throw new TxaError('MISSING_REQUIRED_FIELD', `${field} is required`, { field });
  }
  const id = engine.write(() => {
    engine.workspace(workspaceId);
    requireWallet(engine, workspaceId, walletId);
    const day = input.at!.trim();
    const start = requireDay(day, 'at', 'INVALID_FIELD');
    const balance = parseBalance(input.balance!);
    const token = resolveToken(engine, walletId, input.token!.trim());
    if (scaleOf(balance) > token.decimals) throw invalid('balance', `balance has more decimals than ${token.symbol}'s ${token.decimals}: '${input.balance}'`);
    const existing = engine.db
      .prepare("SELECT id FROM balance_assertions WHERE wallet_id = ? AND token_symbol = ? AND ifnull(token_address, '') = ifnull(?, '') AND day = ?")
      .pluck()
      .get(walletId, token.symbol, token.address, day) as string | undefined;
    if (existing) {
      engine.db.prepare('UPDATE balance_assertions SET balance = ?, created_at = ? WHERE id = ?').run(balance, nowIso(), existing);
      return existing;
    }
    const created = newId('bal');
    engine.db
      .prepare(
        `INSERT INTO balance_assertions (id, workspace_id, wallet_id, token_symbol, token_address, token_decimals, balance, day, end_ts, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(created, workspaceId, walletId, token.symbol, token.address, token.decimals, balance, day, start + DAY_SECONDS, nowIso());
    return created;
  });
  return toAssertion(engine.db.prepare(`${SELECT} WHERE a.id = ?`).get(id) as AssertionRow);
}

/** The workspace's assertions (or one wallet's), by day, wallet and token. */
export function listAssertions(engine: Engine, workspaceId: string, walletId?: string): BalanceAssertion[] {
  engine.workspace(workspaceId);
  if (walletId !== undefined) requireWallet(engine, workspaceId, walletId);
  const rows = engine.db
    .prepare(`${SELECT} WHERE a.workspace_id = ? AND (? IS NULL OR a.wallet_id = ?) ORDER BY a.day, w.label, a.token_symbol, a.id`)
    .all(workspaceId, walletId ?? null, walletId ?? null) as AssertionRow[];
  return rows.map(toAssertion);
}

/** Removes one assertion of the workspace (a mistyped day or balance would fail every check until then). */
export function removeAssertion(engine: Engine, workspaceId: string, id: string): Deleted {
  engine.workspace(workspaceId);
  const { changes } = engine.write(() => engine.db.prepare('DELETE FROM balance_assertions WHERE id = ? AND workspace_id = ?').run(id, workspaceId));
  if (changes === 0) throw new TxaError('ASSERTION_NOT_FOUND', `assertion ${id} not found`, { hint: 'List assertions with: txa wallet assertions' });
  return { id, deleted: true };
}

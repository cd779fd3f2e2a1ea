/**
 * Balance assertions (docs/check.md "Balance assertions"): `txa wallet assert ID --token T --balance AMOUNT --at DATE`
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
import {
  assertionIdOf,
  deleteAssertion,
  getAssertion,
  insertAssertion,
  listAssertionRows,
  updateAssertionBalance,
  walletTokenSymbols,
  walletTokensNamed,
  type AssertionRow,
  type WalletToken,
} from '../store/assertions.js';

export interface AssertionInput {
  token?: string;
  balance?: string;
  at?: string;
}

const invalid = (field: string, message: string) => new TxaError('INVALID_FIELD', message, { field });

/** The wallet's token named by symbol (case-insensitively) or by contract address; ambiguous or unknown → INVALID_FIELD token. */
function resolveToken(engine: Engine, walletId: string, token: string): WalletToken {
  const rows = walletTokensNamed(engine.db, walletId, token);
  if (rows.length === 1) return rows[0]!;
  if (rows.length === 0) {
    const held = walletTokenSymbols(engine.db, walletId);
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
    const existing = assertionIdOf(engine.db, walletId, token, day);
    if (existing) {
      updateAssertionBalance(engine.db, existing, balance, nowIso());
      return existing;
    }
    const created = newId('bal');
    insertAssertion(engine.db, {
      id: created,
      workspace_id: workspaceId,
      wallet_id: walletId,
      token_symbol: token.symbol,
      token_address: token.address,
      token_decimals: token.decimals,
      balance,
      day,
      end_ts: start + DAY_SECONDS,
      created_at: nowIso(),
    });
    return created;
  });
  return toAssertion(getAssertion(engine.db, id)!);
}

/** The workspace's assertions (or one wallet's), by day, wallet and token. */
export function listAssertions(engine: Engine, workspaceId: string, walletId?: string): BalanceAssertion[] {
  engine.workspace(workspaceId);
  if (walletId !== undefined) requireWallet(engine, workspaceId, walletId);
  return listAssertionRows(engine.db, workspaceId, walletId ?? null).map(toAssertion);
}

/** Removes one assertion of the workspace (a mistyped day or balance would fail every check until then). */
export function removeAssertion(engine: Engine, workspaceId: string, id: string): Deleted {
  engine.workspace(workspaceId);
  const deleted = engine.write(() => deleteAssertion(engine.db, workspaceId, id));
  if (!deleted) throw new TxaError('ASSERTION_NOT_FOUND', `assertion ${id} not found`, { hint: 'List assertions with: txa wallet assertions' });
  return { id, deleted: true };
}

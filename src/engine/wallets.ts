/** Wallets: add, update, remove (local only), and the list with balances computed from the ledger. */
import type { Engine } from './engine.js';
import { assertOpen, closedThrough } from './periods.js';
import { walletOpeningDays } from '../store/opening-lots.js';
import { walletRowsBefore } from '../store/periods.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { oneOf } from '../core/filters.js';
import { paginationOf, parsePageParams } from '../core/pagination.js';
import { CHAIN_INFO } from '../core/chains.js';
import { centsToNumber, divRoundHalfEven, fromBaseUnits, toBaseUnits } from '../core/money.js';
import { CHAINS, type Chain, type Deleted, type Page, type QueryParams, type TokenBalance, type Wallet } from '../core/types.js';
import { deleteWalletRows, findWalletByAddress, getWallet, insertWallet, setWalletLabel, walletPage, type WalletRow } from '../store/ledger.js';
import { walletFlows } from '../store/transactions.js';
import { walletCreateSchema, walletUpdateSchema } from '../core/schemas.js';
import { validateBody } from '../core/validate.js';
import { removeWalletRollups } from '../store/rollups.js';
import { removeWalletBalanceDays } from '../store/balance-days.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const WALLET_LIMIT_DEFAULT = 50;
export const WALLET_LIMIT_MAX = 100;

export interface WalletInput {
  id?: string;
  address: string;
  chain: string;
  label?: string;
}

export function normalizeAddress(address: string, field = 'address'): string {
  const a = address.trim();
  if (!ADDRESS.test(a)) throw new TxaError('INVALID_FIELD', `${field} must be a 0x-prefixed 40-hex-digit address, got '${address}'`, { field });
  return a.toLowerCase();
}

export function requireWallet(engine: Engine, workspaceId: string, walletId: string): WalletRow {
  const w = getWallet(engine.db, workspaceId, walletId);
  if (!w) throw new TxaError('WALLET_NOT_FOUND', `wallet ${walletId} not found`, { hint: 'List wallets with: txa wallet list' });
  return w;
}

/** Inserts a wallet and its `wallet.created` event; call inside a write transaction. */
export function insertNewWallet(engine: Engine, workspaceId: string, input: WalletInput): WalletRow {
  const chain = oneOf(input.chain, CHAINS, 'chain', 'INVALID_FIELD');
  const address = normalizeAddress(input.address);
  if (findWalletByAddress(engine.db, workspaceId, chain, address)) {
    throw new TxaError('WALLET_ALREADY_EXISTS', `wallet ${address} on ${chain} is already in this workspace`, { field: 'address' });
  }
  const label = (input.label ?? '').trim() || `${chain} ${address.slice(0, 6)}…${address.slice(-4)}`;
  const row: WalletRow = { id: input.id ?? newId('wal'), workspace_id: workspaceId, address, chain, label, created_at: nowIso(), last_synced: null };
  insertWallet(engine.db, row);
  engine.change(workspaceId, 'wallet.created', row.id, { wallet: publicWallet(row) });
  return row;
}

export function addWallet(engine: Engine, workspaceId: string, input: WalletInput): Wallet {
  const row = engine.write(() => {
    engine.workspace(workspaceId);
    return insertNewWallet(engine, workspaceId, input);
  });
  return walletWithBalance(engine, row);
}

/** POST /wallets and `txa wallet add`: body `{address, chain, label?}`. */
export function createWallet(engine: Engine, workspaceId: string, body: unknown): Wallet {
  const input = validateBody(walletCreateSchema, body);
  if (input.label !== undefined && input.label.trim().length > LABEL_MAX) labelError();
  return addWallet(engine, workspaceId, input);
}

/** PATCH /wallets/:id and `txa wallet update`: body `{label}`. */
export function updateWalletLabel(engine: Engine, workspaceId: string, walletId: string, body: unknown): Wallet {
  return updateWallet(engine, workspaceId, walletId, validateBody(walletUpdateSchema, body).label);
}

const LABEL_MAX = 100;
function labelError(): never {
  throw new TxaError('INVALID_FIELD', `label must be 1 to ${LABEL_MAX} characters`, { field: 'label' });
}

export function updateWallet(engine: Engine, workspaceId: string, walletId: string, label: string): Wallet {
  const trimmed = label.trim();
  if (!trimmed || trimmed.length > LABEL_MAX) labelError();
  const row = engine.write(() => {
    const w = requireWallet(engine, workspaceId, walletId);
    setWalletLabel(engine.db, walletId, trimmed);
    const updated = { ...w, label: trimmed };
    engine.change(workspaceId, 'wallet.updated', walletId, { wallet: publicWallet(updated), changes: { label: { old: w.label, new: trimmed } } });
    return updated;
  });
  return walletWithBalance(engine, row);
}

/** Removes a wallet with its transactions (and their tags, notes, attachment records). */
export function removeWallet(engine: Engine, workspaceId: string, walletId: string): Deleted {
  return engine.write(() => {
    const w = requireWallet(engine, workspaceId, walletId);
    refuseClosedWalletRows(engine, workspaceId, walletId);
    // Its opening lots go with it (docs/lots.md "Opening lots"): not while one is in a closed period.
    assertOpen(engine, workspaceId, { dates: walletOpeningDays(engine.db, walletId), field: 'wallet_id' });
    removeWalletRollups(engine.db, walletId);
    removeWalletBalanceDays(engine.db, walletId);
    deleteWalletRows(engine.db, walletId);
    engine.change(workspaceId, 'wallet.deleted', walletId, { wallet: publicWallet(w) });
    return { id: walletId, deleted: true as const };
  });
}

/** A wallet with rows in a closed period stays (docs/periods.md): PERIOD_CLOSED naming its first such row, with how many it has. */
function refuseClosedWalletRows(engine: Engine, workspaceId: string, walletId: string): void {
  const closed = closedThrough(engine, workspaceId);
  if (!closed) return;
  const { first, count } = walletRowsBefore(engine.db, walletId, closed.endTs);
  if (!first) return;
  throw new TxaError(
    'PERIOD_CLOSED',
    `wallet ${walletId} has ${count} ${count === 1 ? 'row' : 'rows'} dated on or before ${closed.through}, a closed period; nothing was removed`,
    {
      field: first,
      extra: { closed_through: closed.through, count },
      hint: `Reopen the period first: txa period reopen --through ${closed.through} --reason TEXT`,
    },
  );
}

function publicWallet(w: WalletRow) {
  return { id: w.id, address: w.address, label: w.label, chain: w.chain, created_at: w.created_at, last_synced: w.last_synced };
}

interface TokenAcc {
  symbol: string;
  address: string | null;
  decimals: number;
  units: bigint;
  /** Latest known price as a ratio: fiat cents per `priceUnits` base units. */
  priceCents: bigint | null;
  priceUnits: bigint;
  priceTs: number;
}

/**
 * Balances per token (inflows − outflows), valued at each token's latest price seen in the ledger.
 * Spam rows are left out, as from lists, summaries and journals (docs/transfers.md "Spam").
 */
function walletWithBalance(engine: Engine, w: WalletRow): Wallet {
  const rows = walletFlows(engine.db, w.id);
  const tokens = new Map<string, TokenAcc>();
  let count = 0;
  for (const r of rows) {
    count++;
    const key = `${r.token_address ?? ''}\0${r.token_symbol}`;
    let acc = tokens.get(key);
    if (!acc) {
      acc = { symbol: r.token_symbol, address: r.token_address, decimals: r.token_decimals, units: 0n, priceCents: null, priceUnits: 1n, priceTs: -Infinity };
      tokens.set(key, acc);
    }
    const units = toBaseUnits(r.amount, acc.decimals);
    acc.units += r.direction === 'inflow' ? units : -units;
    if (r.fiat_cents !== null && units > 0n && r.ts >= acc.priceTs) {
      acc.priceCents = BigInt(r.fiat_cents);
      acc.priceUnits = units;
      acc.priceTs = r.ts;
    }
  }
  const native = CHAIN_INFO[w.chain as Chain].native;
  let nativeBalance = '0';
  let totalCents = 0n;
  const list: TokenBalance[] = [];
  for (const acc of tokens.values()) {
    const balance = fromBaseUnits(acc.units, acc.decimals);
    const cents = acc.priceCents === null ? null : divRoundHalfEven(acc.units * acc.priceCents, acc.priceUnits);
    if (cents !== null) totalCents += cents;
    if (acc.address === null && acc.symbol === native.symbol) nativeBalance = balance;
    list.push({ symbol: acc.symbol, address: acc.address, balance, fiat_value: cents === null ? null : centsToNumber(Number(cents)) });
  }
  list.sort((a, b) => a.symbol.localeCompare(b.symbol) || String(a.address).localeCompare(String(b.address)));
  return {
    id: w.id,
    address: w.address,
    label: w.label,
    chain: w.chain as Chain,
    balance: { native: nativeBalance, tokens: list, fiat_value: centsToNumber(Number(totalCents)) },
    transaction_count: count,
    created_at: w.created_at,
    last_synced: w.last_synced,
  };
}

export function listWallets(engine: Engine, workspaceId: string, params: QueryParams): Page<Wallet> {
  engine.workspace(workspaceId);
  const chain = params.chain ? oneOf(params.chain, CHAINS, 'chain', 'INVALID_PARAMETERS') : undefined;
  const req = parsePageParams(params, WALLET_LIMIT_DEFAULT, WALLET_LIMIT_MAX);
  const { total, rows } = walletPage(engine.db, workspaceId, chain, req.limit, req.offset);
  return {
    data: rows.map((r) => walletWithBalance(engine, r)),
    pagination: paginationOf(total, req),
  };
}

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
import { CHAIN_INFO, EXCHANGE_CHAIN, isBitcoin, publicChain } from '../core/chains.js';
import { bitcoinAddress, extendedKey } from '../core/bitcoin-keys.js';
import { centsToNumber, divRoundHalfEven, fromBaseUnits, toBaseUnits } from '../core/money.js';
import {
  CHAINS,
  EXCHANGES,
  WALLET_KINDS,
  type Chain,
  type Deleted,
  type Exchange,
  type Page,
  type QueryParams,
  type TokenBalance,
  type Wallet,
} from '../core/types.js';
import { deleteWalletRows, findWalletByAddress, getWallet, insertWallet, setWalletLabel, walletPage, type WalletRow } from '../store/ledger.js';
import { walletFlows } from '../store/transactions.js';
import { walletCreateSchema, walletUpdateSchema } from '../core/schemas.js';
import { validateBody } from '../core/validate.js';
import { removeWalletRollups } from '../store/rollups.js';
import { removeWalletBalanceDays } from '../store/balance-days.js';
import { article } from '../core/errno.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const WALLET_LIMIT_DEFAULT = 50;
export const WALLET_LIMIT_MAX = 100;

export interface WalletInput {
  id?: string;
  /** Absent only for a Bitcoin wallet given by its `xpub`. */
  address?: string;
  chain: string;
  label?: string;
  /** A Bitcoin account's xpub/ypub/zpub (docs/sync.md "Bitcoin"), stored as the wallet's address. */
  xpub?: string;
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

/** `wallet sync` of an exchange account: nothing to sync, its history comes from the exchange's files. */
export function refuseExchangeSync(w: WalletRow): void {
  if (w.kind !== 'exchange') return;
  throw new TxaError('SYNC_UNSUPPORTED_CHAIN', `wallet ${w.id} is an exchange account (${w.exchange}): there is nothing to sync`, {
    field: 'wallet_id',
    hint: `Import the exchange's transaction history instead: txa import FILE --wallet-id ${w.id}`,
  });
}

/**
 * The address a wallet is stored under: an EVM address in lower case; on Bitcoin a mainnet address
 * of any script type, or an account's extended public key as given (docs/storage.md, wallets).
 */
function walletAddress(chain: Chain, input: WalletInput): string {
  if (!isBitcoin(chain) && input.xpub !== undefined) {
    throw new TxaError('INVALID_FIELD', `xpub is for bitcoin wallets only; ${article(chain)} ${chain} wallet has an address`, { field: 'xpub' });
  }
  if (input.address === undefined && input.xpub === undefined) {
    throw new TxaError('MISSING_REQUIRED_FIELD', isBitcoin(chain) ? 'a bitcoin wallet needs an address or an xpub' : 'address is required', {
      field: 'address',
    });
  }
  if (!isBitcoin(chain)) return normalizeAddress(input.address!);
  if (input.xpub !== undefined && input.address !== undefined) {
    throw new TxaError('INVALID_FIELD', 'a bitcoin wallet has either an address or an xpub (xpub, ypub or zpub), not both', { field: 'xpub' });
  }
  return input.xpub === undefined ? bitcoinAddress(input.address!) : extendedKey(input.xpub).key;
}

/** Inserts a wallet and its `wallet.created` event; call inside a write transaction. */
export function insertNewWallet(engine: Engine, workspaceId: string, input: WalletInput): WalletRow {
  const chain = oneOf(input.chain, CHAINS, 'chain', 'INVALID_FIELD');
  const address = walletAddress(chain, input);
  if (findWalletByAddress(engine.db, workspaceId, chain, address)) {
    throw new TxaError('WALLET_ALREADY_EXISTS', `wallet ${address} on ${chain} is already in this workspace`, { field: 'address' });
  }
  const label = (input.label ?? '').trim() || `${chain} ${address.slice(0, 6)}…${address.slice(-4)}`;
  return insertRow(engine, workspaceId, { id: input.id ?? newId('wal'), kind: 'address', exchange: null, address, chain, label });
}

/**
 * An exchange account (docs/storage.md "Exchange wallets"): stored with the internal chain
 * `exchange` and its own id as address, both shown as null. Several accounts of one exchange may
 * be added (two Coinbase logins); the label tells them apart.
 */
function insertExchangeWallet(engine: Engine, workspaceId: string, exchange: Exchange, label: string | undefined): WalletRow {
  const id = newId('wal');
  const name = (label ?? '').trim() || EXCHANGE_NAMES[exchange];
  return insertRow(engine, workspaceId, { id, kind: 'exchange', exchange, address: id, chain: EXCHANGE_CHAIN, label: name });
}

function insertRow(engine: Engine, workspaceId: string, w: Pick<WalletRow, 'id' | 'kind' | 'exchange' | 'address' | 'chain' | 'label'>): WalletRow {
  const row: WalletRow = { ...w, workspace_id: workspaceId, created_at: nowIso(), last_synced: null };
  insertWallet(engine.db, row);
  engine.change(workspaceId, 'wallet.created', row.id, { wallet: publicWallet(row) });
  return row;
}

/** How each exchange is named in a default label. */
const EXCHANGE_NAMES: Record<Exchange, string> = { coinbase: 'Coinbase', kraken: 'Kraken', binance: 'Binance', gemini: 'Gemini', other: 'Exchange' };

export function addWallet(engine: Engine, workspaceId: string, input: WalletInput): Wallet {
  const row = engine.write(() => {
    engine.workspace(workspaceId);
    return insertNewWallet(engine, workspaceId, input);
  });
  return walletWithBalance(engine, row);
}

/** POST /wallets and `txa wallet add`: body `{address, chain, label?}` or `{kind: "exchange", exchange, label?}`. */
export function createWallet(engine: Engine, workspaceId: string, body: unknown): Wallet {
  const input = validateBody(walletCreateSchema, body);
  if (input.label !== undefined && input.label.trim().length > LABEL_MAX) labelError();
  const kind = oneOf(input.kind ?? 'address', WALLET_KINDS, 'kind', 'INVALID_FIELD');
  if (kind === 'exchange') {
    for (const field of ['address', 'chain'] as const) {
      if (input[field] !== undefined && input[field] !== null) throw new TxaError('INVALID_FIELD', `an exchange wallet has no ${field}`, { field });
    }
    if (input.exchange === undefined || input.exchange === null) throw new TxaError('MISSING_REQUIRED_FIELD', 'exchange is required', { field: 'exchange' });
    const exchange = oneOf(input.exchange, EXCHANGES, 'exchange', 'INVALID_FIELD');
    const row = engine.write(() => {
      engine.workspace(workspaceId);
      return insertExchangeWallet(engine, workspaceId, exchange, input.label);
    });
    return walletWithBalance(engine, row);
  }
  if (input.exchange !== undefined && input.exchange !== null) {
    throw new TxaError('INVALID_FIELD', 'exchange is for kind "exchange" wallets only', { field: 'exchange' });
  }
  const address = input.address ?? undefined;
  // An address is named first when neither it nor the chain is given; a bitcoin wallet may have an xpub instead (walletAddress).
  if (input.chain === undefined || input.chain === null) {
    const field = address === undefined && input.xpub === undefined ? 'address' : 'chain';
    throw new TxaError('MISSING_REQUIRED_FIELD', `${field} is required`, { field });
  }
  return addWallet(engine, workspaceId, { address, chain: input.chain, label: input.label, xpub: input.xpub });
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

/** A wallet's fields as the API shows them (no balance): an exchange wallet's address and chain are null. */
export function publicWallet(w: WalletRow) {
  const exchange = w.kind === 'exchange';
  return {
    id: w.id,
    kind: w.kind,
    exchange: exchange ? (w.exchange as Exchange) : null,
    address: exchange ? null : w.address,
    label: w.label,
    chain: publicChain(w.chain),
    created_at: w.created_at,
    last_synced: w.last_synced,
  };
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
  // An exchange holds no coin of its own: its `native` balance is 0.
  const native = w.kind === 'exchange' ? { symbol: '', address: null } : CHAIN_INFO[w.chain as Chain].native;
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
  const { created_at, last_synced, ...shown } = publicWallet(w);
  return {
    ...shown,
    balance: { native: nativeBalance, tokens: list, fiat_value: centsToNumber(Number(totalCents)) },
    transaction_count: count,
    created_at,
    last_synced,
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

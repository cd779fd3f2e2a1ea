/**
 * What the exchange importers share (docs/import.md "Exchange files"): the rows of a custodial
 * account are known by symbol only, so each coin is a token without address whose asset is the
 * on-chain coin of that symbol (accounting/assets.ts); fiat currencies are no tokens at all (a
 * fiat-only row is counted and skipped); a purchase's value is what was paid including fees and a
 * sale's what was received after fees, in the file's currency (the engine converts it to the
 * workspace's with the ledger's rates); rewards carry an income tag in the file's own words.
 */
import Big from 'big.js';
import { TxaError } from '../core/errors.js';
import { onChainTokenOf } from '../core/chains.js';
import { normalizeDecimal, scaleOf } from '../core/money.js';
import type { Direction, Token, TxType } from '../core/types.js';
import { fail } from './csv.js';
import type { ImportContext, ImportRecord } from './types.js';

/** Fiat currencies exchanges name (ISO 4217); a row moving only these is a bank movement, not a token's. */
const FIAT = new Set(
  'USD EUR GBP CAD AUD JPY CHF SGD NZD HKD KRW TRY BRL SEK NOK DKK PLN CZK HUF ZAR INR MXN RUB UAH NGN ARS AED IDR PHP ILS CLP COP PEN THB MYR TWD'.split(' '),
);

export function isFiat(symbol: string): boolean {
  return FIAT.has(symbol.trim().toUpperCase());
}

/** The income tags (type `income`) named as the files name them. */
export type IncomeWord = 'Staking' | 'Rewards' | 'Interest' | 'Income';

/**
 * A coin at an exchange: its symbol upper-cased, no address, the decimals of the on-chain coin of
 * that symbol when the amounts fit them (ETH 18, USDC 6), else 18 or the amounts' scale.
 */
export function exchangeToken(symbol: string, amounts: string[], field: string): Token {
  const name = symbol.trim().toUpperCase();
  if (name === '') fail(field, 'is empty');
  let scale = 0;
  for (const a of amounts) scale = Math.max(scale, scaleOf(a));
  const known = onChainDecimals(name);
  const decimals = known !== null && scale <= known ? known : Math.max(18, scale);
  return { symbol: name, address: null, decimals };
}

/** The decimals of the on-chain coin of a symbol (null: none), looked up once per symbol: an exchange file names a few symbols on every row. */
const knownDecimals = new Map<string, number | null>();
function onChainDecimals(name: string): number | null {
  let decimals = knownDecimals.get(name);
  if (decimals === undefined) {
    // A file of ever new symbols keeps at most this many.
    if (knownDecimals.size >= 1024) knownDecimals.clear();
    decimals = onChainTokenOf(name)?.token.decimals ?? null;
    knownDecimals.set(name, decimals);
  }
  return decimals;
}

/**
 * A signed decimal as exchanges write it: `-0.5`, `1,234.56`, `$1,510.00`, `-$12.50`, `($12.50)`,
 * `€9.99`, `0.5 BTC`, `1E-8`; exact, the sign kept. Null for an empty cell.
 */
export function signedAmount(text: string | undefined, field: string): string | null {
  let raw = (text ?? '').trim();
  if (raw === '') return null;
  // Most cells are a plain signed number: the forms below are all tried only for the others.
  if (PLAIN_SIGNED.test(raw)) {
    const minus = raw.charCodeAt(0) === 45;
    const value = normalizeDecimal(minus ? raw.slice(1) : raw)!;
    return minus && value !== '0' ? `-${value}` : value;
  }
  let negative = false;
  if (/^\(.*\)$/.test(raw)) {
    negative = true;
    raw = raw.slice(1, -1).trim();
  }
  // A unit after the number (Gemini's `0.5 BTC`), a currency sign before it.
  raw = raw.replace(/\s+[A-Za-z][A-Za-z0-9.]*$/, '');
  if (raw.startsWith('-')) {
    negative = !negative;
    raw = raw.slice(1).trim();
  } else if (raw.startsWith('+')) raw = raw.slice(1).trim();
  raw = raw.replace(/^[$€£¥₩]|^[A-Z]{1,3}\$/, '');
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(raw)) raw = raw.replace(/,/g, '');
  const value = normalizeDecimal(raw);
  if (value === null || value.startsWith('-')) fail(field, `not a number: '${(text ?? '').trim()}'`);
  return negative && value !== '0' ? `-${value}` : value;
}

const PLAIN_SIGNED = /^-?\d+(\.\d+)?$/;

/** The magnitude of a signed decimal. */
export const abs = (value: string): string => (value.startsWith('-') ? value.slice(1) : value);

export const isNegative = (value: string): boolean => value.startsWith('-');

export const plus = (a: string, b: string): string => new Big(a).plus(b).toFixed();
export const minus = (a: string, b: string): string => new Big(a).minus(b).toFixed();
export const times = (a: string, b: string): string => new Big(a).times(b).toFixed();

/** A value in a fiat currency (the engine converts it to the workspace's, docs/import.md "Exchange files"). */
export interface Fiat {
  amount: string;
  currency: string;
}

const NETWORK_HASH = /^0x[0-9a-fA-F]{64}$/;

/** One row of an exchange's account, as every exchange importer builds it. */
export interface ExchangeMove {
  line: number;
  tx_hash: string;
  timestamp: number;
  symbol: string;
  /** Magnitude, canonical decimal. */
  amount: string;
  direction: Direction;
  type: TxType;
  fiat?: Fiat | null;
  income?: IncomeWord;
  notes?: string | null;
  /** The field named when the amount does not fit the token. */
  field: string;
}

/** The record of a move: no addresses (a custodial account has none of its own), symbol-only token, the value in its currency. */
export function moveRecord(m: ExchangeMove): ImportRecord {
  const fiat = m.fiat ?? null;
  return {
    line: m.line,
    // A network hash in one case, as explorers and syncs store it, so the wallet's side is found by it.
    tx_hash: m.tx_hash.length === 66 && NETWORK_HASH.test(m.tx_hash) ? m.tx_hash.toLowerCase() : m.tx_hash,
    from_address: '',
    to_address: '',
    token: exchangeToken(m.symbol, [m.amount], m.field),
    amount: m.amount,
    fiat_value: fiat ? abs(fiat.amount) : null,
    fiat_currency: fiat ? fiat.currency.toUpperCase() : undefined,
    direction: m.direction,
    type: m.type,
    timestamp: m.timestamp,
    notes: m.notes ?? null,
    tags: m.income ? [{ name: m.income, type: 'income' }] : undefined,
  };
}

/** A fee paid in a coin: its own `fee` outflow (zero fees make no row). */
export function feeRecord(m: Omit<ExchangeMove, 'direction' | 'type' | 'income'>): ImportRecord[] {
  return m.amount === '0' ? [] : [moveRecord({ ...m, direction: 'outflow', type: 'fee' })];
}

/** The exchange importers read into an exchange wallet only: `--wallet-id` of one added with `wallet add --exchange`. */
export function requireExchangeWallet(format: string, ctx: ImportContext): void {
  const hint = `Add the account first (txa wallet add --exchange ${EXCHANGE_OF[format] ?? 'other'} --label NAME), then: txa import FILE --wallet-id ID`;
  if (!ctx.wallet) throw new TxaError('USAGE_ERROR', `${format} files name no wallet: pass --wallet-id ID of an exchange wallet`, { field: 'wallet', hint });
  if (ctx.wallet.kind !== 'exchange') {
    throw new TxaError('USAGE_ERROR', `wallet ${ctx.wallet.id} is an address on ${ctx.wallet.chain}; ${format} files go into an exchange wallet`, {
      field: 'wallet',
      hint,
    });
  }
  // A Kraken file read into a Coinbase account would file its rows under the wrong exchange: say what the file is.
  const exchange = EXCHANGE_OF[format];
  if (exchange && ctx.wallet.exchange && ctx.wallet.exchange !== 'other' && ctx.wallet.exchange !== exchange) {
    throw new TxaError(
      'USAGE_ERROR',
      `wallet ${ctx.wallet.id} is a ${EXCHANGE_NAME[ctx.wallet.exchange] ?? ctx.wallet.exchange} account; the file looks like a ${EXCHANGE_NAME[exchange]} export`,
      {
        field: 'wallet',
        extra: { looks_like: format },
        hint: `Import it into a ${EXCHANGE_NAME[exchange]} account (txa wallet add --exchange ${exchange} --label NAME), or an 'other' one.`,
      },
    );
  }
}

const EXCHANGE_NAME: Record<string, string> = { coinbase: 'Coinbase', kraken: 'Kraken', binance: 'Binance', gemini: 'Gemini' };

const EXCHANGE_OF: Record<string, string> = { coinbase: 'coinbase', kraken: 'kraken', binance: 'binance', gemini: 'gemini' };

/** Why a fiat-only row is skipped, as the import's output says it. */
export const fiatOnly = (what: string, currency: string): string => `fiat-only row (${what} of ${currency.toUpperCase()}): no token moved`;

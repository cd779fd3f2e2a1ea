/**
 * Which token a row moves, and what kind of transaction it is. Contract addresses identify tokens
 * (symbols collide, spam tokens copy them); decimals come from the known-token table, else 18,
 * widened when an amount has more places, so no amount is ever rounded.
 */
import { CHAIN_INFO, KNOWN_TOKENS, findTokenByAddress, isNativeSymbol } from '../core/chains.js';
import { scaleOf } from '../core/money.js';
import type { Chain, Token, TxType } from '../core/types.js';
import { fail } from './csv.js';

const DEFAULT_DECIMALS = 18;
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Display form of an address, used as the symbol of a token nothing names. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** Decimals for an amount: the known token's (an amount with more places is a bad row), else 18 or wider. */
function decimalsFor(known: Token | undefined, amounts: string[], field: string): number {
  const scale = Math.max(0, ...amounts.map(scaleOf));
  if (!known) return Math.max(DEFAULT_DECIMALS, scale);
  if (scale > known.decimals) fail(field, `has ${scale} decimals but ${known.symbol} has ${known.decimals}`);
  return known.decimals;
}

/** A token by contract address; `symbol` is what the file calls it, if anything. */
export function tokenAtAddress(address: string, amounts: string[], field: string, symbol?: string): Token {
  const known = findTokenByAddress(address);
  const lower = address.toLowerCase();
  return { symbol: symbol?.trim() || known?.symbol || shortAddress(lower), address: lower, decimals: decimalsFor(known, amounts, field) };
}

/**
 * A token by symbol on a chain: the native coin (MATIC counts as POL), else a known token of the
 * chain when the amounts fit its decimals, else a token without address. A symbol is only a
 * guess at identity (tax-tool files are not chain-bound), so a misfit is not an error.
 */
export function tokenBySymbol(chain: Chain, symbol: string, amounts: string[], field: string): Token {
  if (isNativeSymbol(chain, symbol)) return nativeToken(chain, amounts, field);
  const upper = symbol.trim().toUpperCase();
  const known = KNOWN_TOKENS[chain].find((t) => t.symbol.toUpperCase() === upper);
  if (known && amounts.every((a) => scaleOf(a) <= known.decimals)) return { ...known };
  return { symbol: symbol.trim(), address: null, decimals: decimalsFor(undefined, amounts, field) };
}

/** The chain's native coin, checked against the amounts' decimals. */
export function nativeToken(chain: Chain, amounts: string[], field: string): Token {
  const native = CHAIN_INFO[chain].native;
  return { ...native, decimals: decimalsFor(native, amounts, field) };
}

/**
 * The type a decoded method name states plainly (`Swap Exact Tokens For Tokens`, `Approve`,
 * `Bridge…`, `Mint`), or undefined for everything else (plain transfers, 4-byte selectors).
 */
export function typeOfMethod(method: string): TxType | undefined {
  const m = method.trim().toLowerCase();
  if (m === '' || /^0x[0-9a-f]*$/.test(m)) return undefined;
  if (/\bswap|swap\b|\btrade\b/.test(m)) return 'swap';
  if (/\bbridge|\bdeposit v3\b|\bcross ?chain/.test(m)) return 'bridge';
  if (/\bapprov|\bset approval/.test(m)) return 'approval';
  if (/\bmint/.test(m)) return 'mint';
  if (/\bburn/.test(m)) return 'burn';
  return undefined;
}

/** A token transfer's type: the zero address marks mints and burns, then the method, else a transfer. */
export function tokenTransferType(from: string, to: string, method: string): TxType {
  if (from === ZERO_ADDRESS) return 'mint';
  if (to === ZERO_ADDRESS) return 'burn';
  return typeOfMethod(method) ?? 'transfer';
}

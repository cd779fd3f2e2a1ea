/**
 * Spam token transfers (docs/transfers.md "Spam"; the rules are docs/sync.md, "Spam"). Pure: what a
 * token transfer row alone tells, for `wallet sync` and the explorer CSV import alike, so both flag
 * the same rows. The engine adds what needs the ledger: whether the wallet sent a zero-value
 * transfer's tx, and the user's verdicts on tokens (engine/spam-tokens.ts).
 */
import { CHAIN_INFO, KNOWN_TOKENS } from '../core/chains.js';
import type { Chain } from '../core/types.js';

/**
 * Why a row is spam: `lookalike` and `bait` judge its token, `poisoning` the transfer (zero value in
 * a tx the wallet did not send), `marked` the user's mark on the token, `user` a person or a rule
 * set the flag on the row itself (either way: the row's own decision, which token verdicts leave alone).
 */
export type SpamReason = 'poisoning' | 'lookalike' | 'bait' | 'marked' | 'user';

/** The reasons a user's verdict on the token overrides (`txa tokens unspam`). */
export const TOKEN_REASONS: readonly SpamReason[] = ['lookalike', 'bait', 'marked'];

/** A token as a transfer row names it. */
export interface TokenFacts {
  chain: Chain;
  /** The contract, lowercase. */
  address: string;
  symbol: string;
  /** The token's name where the source has one ('' otherwise). */
  name: string;
}

/**
 * Real tokens that share a known token's symbol on its chain: the bridged stablecoins explorers
 * still show as USDC (USDC.e before Circle's native USDC). Never lookalikes.
 */
const SAME_SYMBOL_TOKENS: Partial<Record<Chain, string[]>> = {
  polygon: ['0x2791bca1f2de4661ed88a30c99a7a9449aa84174'],
  arbitrum: ['0xff970a61a04b1ca14834a43f5de4533ebddb5cc8'],
  optimism: ['0x7f5c764cbc14f9669b88837ca1490cca17c31607'],
  avalanche: ['0xa7d7079b0fead91f3e65f86e8915cb59c1a4c664'],
};

/** Letters of other scripts drawn like Latin capitals (Cyrillic, Greek), as the Latin letter. */
const CONFUSABLES: Record<string, string> = {
  А: 'A',
  В: 'B',
  С: 'C',
  Е: 'E',
  Н: 'H',
  І: 'I',
  Ј: 'J',
  К: 'K',
  М: 'M',
  О: 'O',
  Р: 'P',
  Ѕ: 'S',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  а: 'A',
  в: 'B',
  с: 'C',
  е: 'E',
  н: 'H',
  і: 'I',
  ј: 'J',
  к: 'K',
  м: 'M',
  о: 'O',
  р: 'P',
  ѕ: 'S',
  т: 'T',
  х: 'X',
  у: 'Y',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  α: 'A',
  ο: 'O',
  ρ: 'P',
  τ: 'T',
  υ: 'Y',
  χ: 'X',
  ι: 'I',
  κ: 'K',
  ν: 'V',
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'g');
/** Spaces, zero-width and other invisible characters, and dots/dashes padding a symbol (U.S.D.T, U-SDT). */
const FILLER = /[\s\p{Cf}._\-·•]/gu;
/** A symbol as plain as real tickers are: ASCII letters and digits (and `.e`-style suffixes). */
const PLAIN = /^[A-Za-z0-9.]+$/;

/** A symbol as it reads: compatibility forms (fullwidth Ｕ), other scripts' look-alike letters and fillers folded away. */
function fold(symbol: string): string {
  return symbol
    .normalize('NFKC')
    .replace(CONFUSABLE, (c) => CONFUSABLES[c]!)
    .replace(FILLER, '')
    .toUpperCase();
}

/** Every known symbol of every chain, native coins included, as `fold` gives them. */
const KNOWN_SYMBOLS = new Set<string>(
  (Object.keys(CHAIN_INFO) as Chain[]).flatMap((c) => [CHAIN_INFO[c].native.symbol, ...KNOWN_TOKENS[c].map((t) => t.symbol)]).map(fold),
);

/**
 * A link or a call to act in a name or symbol: the way spam tokens advertise a phishing site
 * (`$ USDC-Reward.com`, `Visit usdt-gift.xyz to claim`). Top-level domains real tokens use in
 * their names (yearn.finance, Curve.fi, ether.fi) are not on the list.
 */
const BAIT = new RegExp(
  [
    'https?:',
    String.raw`\bwww\s*\.`,
    String.raw`\bt\.me\b`,
    String.raw`[a-z0-9]\s?\.\s?(com|net|org|io|xyz|app|site|online|top|vip|live|club|pro|info|gift|lol|cc|me|us|to|ly|click|link|fun|cash|claims?|pw|win|bet)\b`,
    String.raw`\b(claim|claimable|visit|voucher|redeem)\b`,
  ].join('|'),
  'i',
);

function isKnownAt(t: TokenFacts): boolean {
  return KNOWN_TOKENS[t.chain].some((k) => k.address === t.address) || (SAME_SYMBOL_TOKENS[t.chain]?.includes(t.address) ?? false);
}

function judgeToken(t: TokenFacts): 'lookalike' | 'bait' | undefined {
  if (isKnownAt(t)) return undefined;
  if (BAIT.test(t.symbol) || BAIT.test(t.name)) return 'bait';
  const upper = t.symbol.trim().toUpperCase();
  // A known token's symbol at another contract of its chain: a copy.
  if (KNOWN_TOKENS[t.chain].some((k) => k.symbol.toUpperCase() === upper)) return 'lookalike';
  // A known symbol spelt with look-alike letters, fullwidth forms or hidden characters (UЅDТ, ＵＳＤＴ, US​DT).
  if (!PLAIN.test(t.symbol) && KNOWN_SYMBOLS.has(fold(t.symbol))) return 'lookalike';
  return undefined;
}

/** The last verdict per contract: a sync or an import meets few tokens over many rows (no key to build per row). */
const verdicts = new Map<string, { facts: TokenFacts; reason: 'lookalike' | 'bait' | undefined }>();
const CACHE_LIMIT = 10_000;

/** Why a token is spam by its name, symbol and contract alone, or undefined. */
export function tokenSpamReason(t: TokenFacts): 'lookalike' | 'bait' | undefined {
  const hit = verdicts.get(t.address);
  if (hit && hit.facts.symbol === t.symbol && hit.facts.name === t.name && hit.facts.chain === t.chain) return hit.reason;
  if (verdicts.size >= CACHE_LIMIT) verdicts.clear();
  const reason = judgeToken(t);
  verdicts.set(t.address, { facts: { ...t }, reason });
  return reason;
}

/**
 * Why a token transfer is spam by the row alone: its token's reason, else `poisoning` for a
 * transfer of zero tokens (address poisoning: a `transferFrom` of 0 a third party pulls in the
 * wallet's name, so a look-alike address shows up in its history). A zero-value transfer is only
 * a candidate: the engine clears it when the wallet sent the tx itself.
 */
export function transferSpamReason(t: TokenFacts, amount: string): SpamReason | undefined {
  return tokenSpamReason(t) ?? (amount === '0' ? 'poisoning' : undefined);
}

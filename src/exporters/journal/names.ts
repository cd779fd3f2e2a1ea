/**
 * Account, commodity and tag names of a journal, valid for both hledger and beancount
 * (docs/journals.md). Beancount is the stricter: an account component starts with a capital
 * letter or digit and holds letters, digits and hyphens; a commodity is 2–24 characters of
 * `[A-Z][A-Z0-9'._-]*[A-Z0-9]`. Names come from the whole workspace (its wallets, tokens and
 * tags), not from the rows an export selects, so two exports of one ledger name things alike;
 * two things whose names sanitise alike get a deterministic suffix.
 */
import type { LedgerCatalog } from '../../store/catalog.js';
import type { Tag, TagType } from '../../core/types.js';

const MAX_COMMODITY = 24;

/** Letters without their accents, ASCII only: `Café Ñandú` → `Cafe Nandu`; other scripts vanish. */
function ascii(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ');
}

/** An account component: runs of other characters become one hyphen, the first letter a capital; '' when nothing is left. */
export function accountComponent(text: string): string {
  const s = ascii(text)
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s && s[0]!.toUpperCase() + s.slice(1);
}

/**
 * A commodity: upper case, other characters as hyphens (so it is an account component too),
 * `T` in front of one that does not start with a letter or is one character long, at most 24.
 */
export function commodityName(symbol: string): string {
  let s = ascii(symbol)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (s === '') return 'TOKEN';
  if (!/^[A-Z]/.test(s) || s.length < 2) s = `T${s}`;
  return trimEnd(s.slice(0, MAX_COMMODITY));
}

const trimEnd = (s: string) => s.replace(/-+$/, '');

/** The first of `candidates` not taken yet (then `base-2`, `base-3`, …), marked taken. */
function claim(taken: Set<string>, candidates: string[], base: string, limit = Infinity): string {
  const fit = (s: string, suffix = '') => trimEnd(s.slice(0, limit - suffix.length)) + suffix;
  for (const c of candidates.map((c) => fit(c))) {
    if (!taken.has(c.toLowerCase())) return take(taken, c);
  }
  for (let n = 2; ; n++) {
    const c = fit(base, `-${n}`);
    if (!taken.has(c.toLowerCase())) return take(taken, c);
  }
}

/** Names compare case-insensitively, so two never differ by case alone (case-insensitive file systems, human readers). */
function take(taken: Set<string>, name: string): string {
  taken.add(name.toLowerCase());
  return name;
}

const tokenKey = (symbol: string, address: string | null) => `${address ?? ''}\u0000${symbol}`;

/** The tokens of the holdings, most rows first, then by symbol and address (deterministic). */
function tokensByUse(catalog: LedgerCatalog): { symbol: string; address: string | null }[] {
  const tokens = new Map<string, { symbol: string; address: string | null; rows: number }>();
  for (const h of catalog.holdings) {
    const key = tokenKey(h.symbol, h.address);
    const t = tokens.get(key) ?? { symbol: h.symbol, address: h.address, rows: 0 };
    t.rows += h.rows;
    tokens.set(key, t);
  }
  const text = (t: { symbol: string; address: string | null }) => tokenKey(t.symbol, t.address);
  return [...tokens.values()].sort((a, b) => b.rows - a.rows || (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

export interface TagAccount {
  /** The tag as a tag of both tools, e.g. `Office-rent`. */
  tag: string;
  /** `Income:…`, `Expenses:…` or `Equity:…` by the tag's type. */
  account: string;
}

const ROOT: Record<TagType, string> = { income: 'Income', expense: 'Expenses', neutral: 'Equity' };

/** Accounts that are no tag's: rows without a tag, fees without a tag, and own transfers' clearing. */
export const UNKNOWN_ACCOUNT = 'Equity:Unknown';
export const FEES_ACCOUNT = 'Expenses:Fees';
export const TRANSFERS_ACCOUNT = 'Equity:Transfers';

export class JournalNames {
  private readonly wallets = new Map<string, string>();
  private readonly commodities = new Map<string, string>();
  private readonly tags = new Map<string, TagAccount>();
  private readonly holdings: LedgerCatalog['holdings'];

  /** `currency`: the journal's fiat currency, which no token may be named. */
  constructor(catalog: LedgerCatalog, tags: readonly Pick<Tag, 'id' | 'name' | 'type'>[], currency: string) {
    this.holdings = catalog.holdings;
    // Wallets in the order they were added: a second `Main` becomes `Main-Arbitrum`, then `Main-2`.
    const walletNames = new Set<string>();
    for (const w of catalog.wallets) {
      const base = accountComponent(w.label) || `Wallet-${w.kind === 'exchange' ? w.id.slice(-6) : w.address.slice(2, 8)}`;
      this.wallets.set(w.id, claim(walletNames, [base, `${base}-${accountComponent(w.exchange ?? w.chain)}`], base));
    }
    // Tokens most used first: the real USDC keeps `USDC`, a look-alike gets `USDC-<its address>`.
    const commodityNames = new Set([currency.toLowerCase()]);
    for (const t of tokensByUse(catalog)) {
      const base = commodityName(t.symbol);
      const byAddress = t.address ? [`${base}-${t.address.slice(2, 10).toUpperCase()}`] : [];
      this.commodities.set(tokenKey(t.symbol, t.address), claim(commodityNames, [base, ...byAddress], base, MAX_COMMODITY));
    }
    // Tags by name; the accounts that are no tag's are taken first.
    const tagNames = new Set(['unknown', 'fees', 'transfers']);
    for (const t of tags) {
      const base = accountComponent(t.name) || 'Tag';
      const tag = claim(tagNames, [base], base);
      this.tags.set(t.id, { tag, account: `${ROOT[t.type]}:${tag}` });
    }
  }

  /** `Assets:<wallet>`, the parent of the wallet's token accounts. */
  wallet(walletId: string): string {
    const name = this.wallets.get(walletId);
    if (name === undefined) throw new Error(`wallet ${walletId} is not in the journal's catalog`);
    return `Assets:${name}`;
  }

  commodity(symbol: string, address: string | null): string {
    const name = this.commodities.get(tokenKey(symbol, address));
    if (name === undefined) throw new Error(`token ${symbol} ${address ?? '(native)'} is not in the journal's catalog`);
    return name;
  }

  /** `Assets:<wallet>:<TOKEN>`: a commodity is a valid account component. */
  holding(walletId: string, symbol: string, address: string | null): string {
    return `${this.wallet(walletId)}:${this.commodity(symbol, address)}`;
  }

  /** A tag's names; undefined for a tag the catalog does not know (deleted while the export ran). */
  tag(tagId: string): TagAccount | undefined {
    return this.tags.get(tagId);
  }

  /** Every account a journal of this catalog may post to, each once. */
  *accounts(): Generator<{ account: string; walletId?: string }> {
    for (const h of this.holdings) yield { account: this.holding(h.walletId, h.symbol, h.address), walletId: h.walletId };
    for (const t of this.tags.values()) yield { account: t.account };
    for (const account of [UNKNOWN_ACCOUNT, FEES_ACCOUNT, TRANSFERS_ACCOUNT]) yield { account };
  }
}

/**
 * Transactions as journal entries, independent of the syntax (docs/journals.md): each row moves
 * its amount in or out of `Assets:<wallet>:<TOKEN>` against the account of its first tag (income,
 * expense or equity by the tag's type), `Expenses:Fees` for an untagged fee, else `Equity:Unknown`,
 * at its fiat value when it has one (`@@`). The two legs of an own transfer are one entry between
 * the wallets' accounts, written at the first leg met; a leg whose counterpart the export does not
 * hold, or holds in another commodity, moves against `Equity:Transfers`.
 */
import Big from 'big.js';
import type { Transaction } from '../../core/types.js';
import { addDecimals, centsToString } from '../../core/money.js';
import { FEES_ACCOUNT, TRANSFERS_ACCOUNT, UNKNOWN_ACCOUNT, type JournalNames } from './names.js';

export interface Posting {
  account: string;
  /** Signed canonical decimal. */
  quantity: string;
  commodity: string;
  /** The posting's total value (`@@`): unsigned, in the journal's currency. */
  total?: { value: string; currency: string };
}

export interface Entry {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  narration: string;
  /** Metadata in order; values are data (escaped by the syntax). */
  meta: [string, string][];
  /** Tag names valid in both tools. */
  tags: string[];
  postings: Posting[];
}

/** Prices to 12 decimals, half to even: enough for tokens worth a fraction of a cent. */
const PriceBig = Big();
PriceBig.DP = 12;
PriceBig.RM = Big.roundHalfEven;

const negate = (q: string) => (q.startsWith('-') ? q.slice(1) : q === '0' ? q : `-${q}`);
const signed = (tx: Transaction) => (tx.direction === 'inflow' ? tx.amount : negate(tx.amount));
const cents = (tx: Transaction) => (tx.fiat_value === null ? 0 : Math.round(tx.fiat_value * 100));

/** The unit price of a row with a positive value and amount, else null. */
export function unitPrice(tx: Transaction): string | null {
  if (cents(tx) <= 0 || tx.amount === '0') return null;
  const price = new PriceBig(centsToString(cents(tx))).div(tx.amount);
  return price.eq(0) ? null : price.toFixed();
}

export class EntryBuilder {
  /** Second legs of own transfers already written with their first: skipped when met. */
  private readonly written = new Set<string>();

  constructor(
    private readonly names: JournalNames,
    private readonly currency: string,
    /** A row of the export by id (null when the export does not hold it). */
    private readonly lookup: (id: string) => Transaction | null,
  ) {}

  /** The entry of a row; null for a row that moves nothing or whose transfer was written already. */
  entry(tx: Transaction): Entry | null {
    if (tx.amount === '0') return null;
    if (tx.transfer) return this.transfer(tx, tx.transfer.counterpart_id);
    const value = cents(tx) > 0 ? centsToString(cents(tx)) : undefined;
    const own = this.holding(tx);
    const other = this.counterAccount(tx);
    const counter: Posting = value
      ? { account: other, quantity: tx.direction === 'inflow' ? negate(value) : value, commodity: this.currency }
      : { account: other, quantity: negate(own.quantity), commodity: own.commodity };
    return this.base(tx, tx.notes ?? `${tx.type} ${tx.direction === 'inflow' ? 'from' : 'to'} ${tx.direction === 'inflow' ? tx.from_address : tx.to_address}`, [
      value ? { ...own, total: { value, currency: this.currency } } : own,
      counter,
    ]);
  }

  private transfer(tx: Transaction, counterpartId: string | null): Entry | null {
    if (this.written.delete(tx.id)) return null;
    const own = this.holding(tx);
    const cp = counterpartId === null ? null : this.lookup(counterpartId);
    const theirs = cp && cp.amount !== '0' && cp.direction !== tx.direction ? this.holding(cp) : null;
    const meta: [string, string][] = [['transfer_id', tx.transfer!.id]];
    if (!cp || !theirs || theirs.commodity !== own.commodity) {
      const entry = this.base(tx, tx.notes ?? `own transfer ${tx.direction === 'inflow' ? 'in' : 'out'}`, [
        own,
        { account: TRANSFERS_ACCOUNT, quantity: negate(own.quantity), commodity: own.commodity },
      ]);
      entry.meta.push(...meta);
      return entry;
    }
    this.written.add(cp.id);
    const [from, to] = tx.direction === 'outflow' ? [tx, cp] : [cp, tx];
    const postings = [own, theirs];
    // What arrived short of (or beyond) what was sent: a bridge's fee, or an unexplained difference.
    const rest = negate(addDecimals([own.quantity, theirs.quantity]));
    if (rest !== '0') postings.push({ account: TRANSFERS_ACCOUNT, quantity: rest, commodity: own.commodity });
    const entry = this.base(tx, tx.notes ?? `own transfer ${from.wallet_label} to ${to.wallet_label}`, postings);
    entry.meta.push(['counterpart_id', cp.id], ...meta);
    return entry;
  }

  private holding(tx: Transaction): Posting {
    return {
      account: this.names.holding(tx.wallet_id, tx.token.symbol, tx.token.address),
      quantity: signed(tx),
      commodity: this.names.commodity(tx.token.symbol, tx.token.address),
    };
  }

  private counterAccount(tx: Transaction): string {
    for (const t of tx.tags) {
      const named = this.names.tag(t.id);
      if (named) return named.account;
    }
    return tx.type === 'fee' ? FEES_ACCOUNT : UNKNOWN_ACCOUNT;
  }

  private base(tx: Transaction, narration: string, postings: Posting[]): Entry {
    const tags = tx.tags.flatMap((t) => this.names.tag(t.id)?.tag ?? []);
    const meta: [string, string][] = [
      ['id', tx.id],
      ['tx_hash', tx.tx_hash],
      ['chain', tx.chain ?? 'exchange'],
      ['type', tx.type],
    ];
    if (tx.tags.length > 0) meta.push(['tags', tx.tags.map((t) => t.name).join('; ')]);
    return { date: tx.timestamp.slice(0, 10), narration, meta, tags, postings };
  }
}

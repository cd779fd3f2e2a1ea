/**
 * Amounts beancount cannot hold (docs/journals.md, "Beyond 28 digits"). Beancount reads amounts
 * as Python decimals whose context keeps 28 significant digits: a negative amount of more digits
 * is rounded as it is read (`-x` is an operation), and the sums it balances an entry with are
 * rounded too, so such an entry may not balance, or balance on a figure that is not the file's.
 * The beancount syntax writes every amount of more than 28 digits as pieces of at most 28 on the
 * same account, each piece beside its counter piece, so every number beancount reads is exact and
 * every partial sum it makes is 0 or one piece: the entry balances exactly, with no tolerance.
 */
import { open } from 'node:fs/promises';
import { addDecimals, fromBaseUnits, scaleOf, toBaseUnits } from '../../core/money.js';
import type { Entry, Posting } from './entries.js';

/** Significant digits of Python's default decimal context, which beancount uses. */
const BEANCOUNT_DIGITS = 28;

/** Digits from the first to the last nonzero one: trailing zeros of an integer cost no precision. */
function span(units: bigint): number {
  return units === 0n ? 0 : units.toString().replace(/^-/, '').replace(/0+$/, '').length;
}

const fitsBeancount = (quantity: string) => span(toBaseUnits(quantity, scaleOf(quantity))) <= BEANCOUNT_DIGITS;

/** `quantity` as pieces of at most 28 significant digits, largest first, of its sign, summing to it exactly. */
export function pieces(quantity: string): string[] {
  const scale = scaleOf(quantity);
  const negative = quantity.startsWith('-');
  let rest = toBaseUnits(quantity.replace(/^-/, ''), scale);
  const out: bigint[] = [];
  while (span(rest) > BEANCOUNT_DIGITS) {
    // Keep the top 28 digits; what is below them is the next piece.
    const cut = 10n ** BigInt(rest.toString().length - BEANCOUNT_DIGITS);
    out.push(rest - (rest % cut));
    rest %= cut;
  }
  out.push(rest);
  return out.map((u) => fromBaseUnits(negative ? -u : u, scale));
}

const negate = (q: string) => (q.startsWith('-') ? q.slice(1) : `-${q}`);

/**
 * A priced posting's pieces: the first carries the whole value, the others `@@ 0.00`. Their share
 * of it is the cents of less than 10^-27 of the amount (everything below its top 28 digits), which
 * is 0.00 for any value a row can have.
 */
function pricedPieces(p: Posting): Posting[] {
  return pieces(p.quantity).map((quantity, i) => ({ ...p, quantity, total: i === 0 ? p.total : { value: '0.00', currency: p.total!.currency } }));
}

/**
 * The unpriced postings of one commodity (they sum to 0) as pairs: each but the last against its
 * opposite on the last one's account. Two postings stay one pair; an own transfer's two legs and
 * its difference on `Equity:Transfers` become each leg against `Equity:Transfers`, whose two
 * postings sum to the difference. A pair whose amount has more than 28 digits is written piece by
 * piece, each beside its counter piece, so beancount's running sum never holds more than one.
 */
function pairs(group: Posting[]): Posting[] {
  if (addDecimals(group.map((p) => p.quantity)) !== '0') throw new Error(`postings in ${group[0]!.commodity} do not balance`);
  const last = group[group.length - 1]!;
  return group.slice(0, -1).flatMap((p) =>
    pieces(p.quantity).flatMap((q) => [
      { ...p, quantity: q },
      { ...last, quantity: negate(q) },
    ]),
  );
}

export interface Fitted {
  entry: Entry;
  /** What the comment before the entry says was written differently; null when the entry is as it was. */
  note: string | null;
}

/**
 * The entry as beancount can read it exactly: as it is when every amount has at most 28 digits,
 * else with its wide amounts in pieces. The export's currency has cents (never 28 digits), so
 * only token amounts are ever split.
 */
export function fitBeancount(entry: Entry): Fitted {
  const wide = entry.postings.filter((p) => !fitsBeancount(p.quantity));
  if (wide.length === 0) return { entry, note: null };
  const priced = entry.postings.filter((p) => p.total);
  const groups = new Map<string, Posting[]>();
  for (const p of entry.postings.filter((p) => !p.total)) groups.set(p.commodity, [...(groups.get(p.commodity) ?? []), p]);
  const reshaped = [...groups.values()].map((g) => (g.some((p) => wide.includes(p)) ? pairs(g) : g));
  const postings = [...priced.flatMap((p) => (wide.includes(p) ? pricedPieces(p) : [p])), ...reshaped.flat()];
  const amounts = wide.map((p) => `${p.account} ${p.quantity} ${p.commodity}`).join(', ');
  const legs = [...groups.values()].find((g) => g.length > 2 && g.some((p) => wide.includes(p)));
  const clearing = legs ? `, each leg against ${legs[legs.length - 1]!.account} (its postings there sum to the difference)` : '';
  const how = `written as pieces of at most ${BEANCOUNT_DIGITS} on the same account, each beside its counter piece${clearing}`;
  return {
    entry: { ...entry, postings },
    note: `txa: ${amounts}: more than ${BEANCOUNT_DIGITS} significant digits, beyond what beancount holds exactly; ${how}`,
  };
}

const FOOTER = /\n; (txa: \d+ entr(?:y has|ies have) amounts of more than \d+ significant digits[^\n]*)\n$/;

/** The last line of a beancount file that has entries in pieces: how many, for its reader and for stderr. */
export const piecesFooter = (entries: number) =>
  `; txa: ${entries} ${entries === 1 ? 'entry has' : 'entries have'} amounts of more than ${BEANCOUNT_DIGITS} significant digits, beyond beancount's precision, written in pieces (see the "; txa:" comment before each; docs/journals.md)\n`;

/** The footer of a beancount file written by txa, read from its end; null when it has none. */
export async function piecesNotice(path: string): Promise<string | null> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const tail = Buffer.alloc(Math.min(size, 1024));
    await file.read(tail, 0, tail.length, size - tail.length);
    return FOOTER.exec(`\n${tail.toString('utf8')}`)?.[1] ?? null;
  } finally {
    await file.close();
  }
}

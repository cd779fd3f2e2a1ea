/**
 * Form 8949's part, box and columns (f)–(g) for a disposed lot, and the matching of disposals to
 * a broker's 1099-DA (or 1099-B) lines (docs/accounting.md "Form 8949, 1099-DA and the
 * roll-forward"). Pure: lines and disposals in, boxes and adjustments out.
 *
 * - Part I short-term (held one year or less, and a piece with no lot, whose holding period is
 *   unknown), Part II long-term.
 * - Box: disposals dated 2025 or later G/H/I (Part I) and J/K/L (Part II), before 2025 A/B/C and
 *   D/E/F. The first letter when the piece's disposal matched a broker line that reports basis
 *   to the IRS, the second when it matched one that does not, the third otherwise (no line, or a
 *   self-custody wallet).
 * - Matching: same wallet, same UTC day, same asset symbol, units equal once both are rounded to
 *   8 decimals; each line matches one disposal, in the lines' order.
 */
import { divRoundHalfEven, pow10 } from '../core/money.js';
import type { Term } from './holding.js';
import { share } from './lots.js';
import type { Quantity } from './quantity.js';
import type { BrokerLine } from '../core/broker-lines.js';

export type Part = 'I' | 'II';
export type Box = 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H' | 'I' | 'J' | 'K' | 'L';

export type { BrokerLine } from '../core/broker-lines.js';

/** The first day of per-wallet digital-asset boxes G–L (the 2025 Form 8949). */
export const DIGITAL_BOXES_FROM = '2025-01-01';

const BOXES: Record<'old' | 'new', Record<Part, [Box, Box, Box]>> = {
  old: { I: ['A', 'B', 'C'], II: ['D', 'E', 'F'] },
  new: { I: ['G', 'H', 'I'], II: ['J', 'K', 'L'] },
};

export function partOf(term: Term | null): Part {
  return term === 'long' ? 'II' : 'I';
}

/** The box of a disposed piece: by its date, its part, and the broker line it matched (if any). */
export function boxOf(dateSold: string, part: Part, match: Pick<BrokerLine, 'basis_reported'> | null, selfCustody: boolean): Box {
  const letters = BOXES[dateSold < DIGITAL_BOXES_FROM ? 'old' : 'new'][part];
  if (match === null || selfCustody) return letters[2];
  return match.basis_reported ? letters[0] : letters[1];
}

/** A quantity rounded half to even to 8 decimals, as text of its scaled integer (the matching key). */
export function units8(q: Quantity): string {
  if (q.scale <= 8) return (q.units * pow10(8 - q.scale)).toString();
  return divRoundHalfEven(q.units, pow10(q.scale - 8)).toString();
}

/** A canonical decimal's units at 8 decimals (rounded half to even). */
export function decimalUnits8(text: string): string {
  const [int = '0', frac = ''] = text.split('.');
  return units8({ units: BigInt(int + frac), scale: frac.length });
}

const keyOf = (wallet: string, day: string, asset: string, units: string) => `${wallet}|${day}|${asset.toUpperCase()}|${units}`;

/** Pairs disposals with broker lines, each line once, in the lines' order. */
export class BrokerMatcher {
  private readonly open = new Map<string, BrokerLine[]>();
  readonly matched = new Set<BrokerLine>();
  /** Wallets with at least one line: their disposals without one are listed by the reconciliation. */
  readonly wallets = new Set<string>();

  constructor(lines: Iterable<BrokerLine>) {
    for (const l of lines) {
      this.wallets.add(l.wallet_id);
      const key = keyOf(l.wallet_id, l.date_sold, l.asset, decimalUnits8(l.units));
      const list = this.open.get(key);
      if (list) list.push(l);
      else this.open.set(key, [l]);
    }
  }

  /** The line a disposal of `quantity` of `asset` from `wallet` on `day` matches, taken; or null. */
  take(wallet: string, day: string, asset: string, quantity: Quantity): BrokerLine | null {
    if (!this.wallets.has(wallet)) return null;
    const list = this.open.get(keyOf(wallet, day, asset, units8(quantity)));
    const line = list?.shift();
    if (!line) return null;
    this.matched.add(line);
    return line;
  }
}

/** What a piece shows in columns (d)–(h). */
export interface Columns {
  proceeds: bigint | null;
  basis: bigint | null;
  /** Column (f): the codes, in alphabetical order, or ''. */
  code: string;
  /** Column (g): null when no adjustment is made. */
  adjustment: bigint | null;
  gain: bigint | null;
}

/** txa's figures of a piece and, when its disposal matched a line, the line's share of the piece. */
export interface PieceFigures {
  proceeds: bigint | null;
  cost: bigint | null;
  broker: { proceeds: bigint; basis: bigint | null; basisReported: boolean } | null;
}

/**
 * Columns (d)–(h) of a piece. Without a broker line, txa's figures. With one, (d) is the proceeds
 * the broker reported and (e) the basis it reported to the IRS (else txa's); (g) brings (h) to
 * txa's gain, with code B where the basis differs (the instructions' "basis shown … is
 * incorrect": with a basis reported to the IRS, (e) keeps it and (g) corrects it; with one not
 * reported, (e) is the correct basis and the difference needs no amount) and code O where the
 * proceeds differ (the form has no dedicated code for proceeds; docs/accounting.md).
 */
export function columnsOf(p: PieceFigures): Columns {
  const b = p.broker;
  if (b === null) {
    return { proceeds: p.proceeds, basis: p.cost, code: '', adjustment: null, gain: p.proceeds === null || p.cost === null ? null : p.proceeds - p.cost };
  }
  const proceeds = b.proceeds;
  const txaProceeds = p.proceeds ?? proceeds;
  const reported = b.basisReported && b.basis !== null;
  const basis = reported ? b.basis : p.cost;
  const codes: string[] = [];
  let adjustment = 0n;
  if (p.cost !== null && b.basis !== null && b.basis !== p.cost) {
    codes.push('B');
    if (reported) adjustment += b.basis - p.cost;
  }
  if (txaProceeds !== proceeds) {
    codes.push('O');
    adjustment += txaProceeds - proceeds;
  }
  const gain = basis === null ? null : proceeds - basis + adjustment;
  return { proceeds, basis, code: codes.join(''), adjustment: codes.length > 0 ? adjustment : null, gain };
}

/** The share of a broker line's amounts for the slice (before, after] of a disposal of `whole` units (rounded once, summing exactly). */
export function brokerShare(line: BrokerLine, before: bigint, after: bigint, whole: bigint): NonNullable<PieceFigures['broker']> {
  return {
    proceeds: share(line.proceeds_cents, before, after, whole),
    basis: line.cost_basis_cents === null ? null : share(line.cost_basis_cents, before, after, whole),
    basisReported: line.basis_reported,
  };
}

/** `YYYY-MM-DD…` → `MM/DD/YYYY`, the form's dates. */
export function formDate(isoDay: string): string {
  return `${isoDay.slice(5, 7)}/${isoDay.slice(8, 10)}/${isoDay.slice(0, 4)}`;
}

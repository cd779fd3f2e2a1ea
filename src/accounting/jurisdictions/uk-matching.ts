/**
 * The UK share-matching rules for cryptoassets (docs/jurisdictions.md "uk"; HMRC
 * Cryptoassets Manual CRYPTO22200 and the examples CRYPTO22251–22256), for one asset across every
 * wallet:
 *
 * 1. all acquisitions of one day are one acquisition, all disposals of one day one disposal;
 * 2. a disposal is matched first with the acquisition of the same day,
 * 3. then with acquisitions of the next 30 days, earliest first (disposals in date order, so an
 *    earlier disposal has the first claim: CRYPTO22253),
 * 4. then with the Section 104 pool at its average cost; what the pool lacks is reported as
 *    missing cost, never at a cost of zero.
 *
 * Money is exact pence: an apportioned cost is rounded half up to the penny and the rest stays with
 * the acquisition or the pool, so no penny is made or lost (HMRC shows the same figures rounded to
 * pounds). The rules look 30 days ahead, so the book keeps one aggregate per asset and day (not per
 * row) and matches when the stream ends.
 */
import { upscale, type Quantity } from '../quantity.js';

/** Which rule matched (part of) a disposal, in the order they apply. */
export type UkRule = 'same-day' | '30-day' | 's104';

interface Day {
  day: string;
  acquired: bigint;
  acquiredCost: bigint;
  disposed: bigint;
  proceeds: bigint;
  /** Fees paid for the day's disposals: allowable costs of the disposal, not of what it matches. */
  disposalCosts: bigint;
  /** Some acquisition of the day had no fiat value (counted at 0): its matches say so. */
  unpricedAcquisition: boolean;
  /** Some disposal of the day had no fiat value (its proceeds counted at 0). */
  unpricedDisposal: boolean;
  /** Whether the day's disposal is in the report's period. */
  reported: boolean;
}

/** One day's disposal of the asset after matching. */
export interface UkDisposal {
  day: string;
  quantity: Quantity;
  proceedsCents: bigint;
  /** Allowable cost: the matched acquisitions' and pool's shares. */
  costCents: bigint;
  gainCents: bigint;
  /** The rules that matched it, in order (e.g. `same-day`, `s104`). */
  rules: UkRule[];
  /** What no acquisition or pool covered. */
  missing: Quantity | null;
  /** An acquisition it was matched with, or the pool it drew on, had no fiat value. */
  unpricedCost: boolean;
  unpricedProceeds: boolean;
  reported: boolean;
}

/** `part` of `whole`'s `total`, rounded half up to the penny (0 ≤ part ≤ whole). */
export function shareOf(total: bigint, part: bigint, whole: bigint): bigint {
  if (part === whole) return total;
  return (total * part * 2n + whole) / (whole * 2n);
}

const DAY_MS = 86_400_000;
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** One asset's acquisitions and disposals by day, matched at the end. */
export class UkAssetBook {
  private readonly days = new Map<string, Day>();
  /** Quantities are held at this many decimals; it only grows (a pooled asset's tokens may differ). */
  private scale = 0;

  private dayOf(day: string): Day {
    let d = this.days.get(day);
    if (!d) {
      d = {
        day,
        acquired: 0n,
        acquiredCost: 0n,
        disposed: 0n,
        proceeds: 0n,
        disposalCosts: 0n,
        unpricedAcquisition: false,
        unpricedDisposal: false,
        reported: false,
      };
      this.days.set(day, d);
    }
    return d;
  }

  private units(q: Quantity): bigint {
    if (q.scale > this.scale) {
      for (const d of this.days.values()) {
        d.acquired = upscale(d.acquired, this.scale, q.scale);
        d.disposed = upscale(d.disposed, this.scale, q.scale);
      }
      this.scale = q.scale;
    }
    return upscale(q.units, q.scale, this.scale);
  }

  acquire(day: string, q: Quantity, costCents: bigint | null): void {
    const units = this.units(q);
    const d = this.dayOf(day);
    d.acquired += units;
    d.acquiredCost += costCents ?? 0n;
    if (costCents === null) d.unpricedAcquisition = true;
  }

  dispose(day: string, q: Quantity, proceedsCents: bigint | null, reported: boolean, costsCents = 0n): void {
    const units = this.units(q);
    const d = this.dayOf(day);
    d.disposed += units;
    d.proceeds += proceedsCents ?? 0n;
    d.disposalCosts += costsCents;
    if (proceedsCents === null) d.unpricedDisposal = true;
    if (reported) d.reported = true;
  }

  /** Matches every disposal (rules 2–4) and answers them in date order. */
  match(): UkDisposal[] {
    const days = [...this.days.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    // What of each day is still unmatched, and each disposal's matches so far.
    const acqLeft = days.map((d) => ({ qty: d.acquired, cost: d.acquiredCost }));
    const out = days.map((d) => ({ left: d.disposed, cost: 0n, rules: [] as UkRule[], unpricedCost: false }));
    const take = (i: number, j: number, rule: UkRule) => {
      const a = acqLeft[j]!;
      const o = out[i]!;
      const m = o.left < a.qty ? o.left : a.qty;
      if (m === 0n) return;
      const cost = shareOf(a.cost, m, a.qty);
      a.qty -= m;
      a.cost -= cost;
      o.left -= m;
      o.cost += cost;
      if (!o.rules.includes(rule)) o.rules.push(rule);
      if (days[j]!.unpricedAcquisition) o.unpricedCost = true;
    };
    // Rule 2: the same day.
    for (let i = 0; i < days.length; i++) take(i, i, 'same-day');
    // Rule 3: the next 30 days, earliest first, disposals in date order.
    for (let i = 0; i < days.length; i++) {
      if (out[i]!.left === 0n) continue;
      const last = plusDays(days[i]!.day, 30);
      for (let j = i + 1; j < days.length && days[j]!.day <= last && out[i]!.left > 0n; j++) take(i, j, '30-day');
    }
    // Rule 4: the pool, built from what acquisitions are left, day by day.
    const pool = { qty: 0n, cost: 0n, unpriced: false };
    const result: UkDisposal[] = [];
    for (let i = 0; i < days.length; i++) {
      const d = days[i]!;
      const o = out[i]!;
      let missing = 0n;
      if (o.left > 0n) {
        const m = o.left < pool.qty ? o.left : pool.qty;
        if (m > 0n) {
          const cost = shareOf(pool.cost, m, pool.qty);
          pool.qty -= m;
          pool.cost -= cost;
          o.cost += cost;
          o.rules.push('s104');
          if (pool.unpriced) o.unpricedCost = true;
        }
        missing = o.left - m;
      }
      const a = acqLeft[i]!;
      pool.qty += a.qty;
      pool.cost += a.cost;
      if (a.qty > 0n && d.unpricedAcquisition) pool.unpriced = true;
      if (pool.qty === 0n) pool.unpriced = false;
      if (d.disposed === 0n) continue;
      o.cost += d.disposalCosts;
      result.push({
        day: d.day,
        quantity: { units: d.disposed, scale: this.scale },
        proceedsCents: d.proceeds,
        costCents: o.cost,
        gainCents: d.proceeds - o.cost,
        rules: o.rules,
        missing: missing > 0n ? { units: missing, scale: this.scale } : null,
        unpricedCost: o.unpricedCost,
        unpricedProceeds: d.unpricedDisposal,
        reported: d.reported,
      });
    }
    return result;
  }
}

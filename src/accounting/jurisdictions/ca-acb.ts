/**
 * Canada's adjusted cost base for one asset across every wallet (docs/jurisdictions.md "ca"):
 * identical properties are one pool at their average cost (ITA s. 47); a disposal's ACB is
 * `pool ACB × quantity / pool quantity`, its gain `proceeds − ACB − outlays`.
 *
 * A loss is superficial (ITA s. 54, s. 40(2)(g)(i)) where the same asset was acquired in the 61
 * days from 30 days before to 30 days after the disposal and is still held at the end of them.
 * Where the quantities differ, the CRA denies the part `loss × min(S, P, B) / S` (IT-456R ¶12; the
 * formula adjustedcostbase.ca gives): S sold, P acquired in the 61 days, B held at the end. The
 * denied part is added to the pool's ACB (s. 53(1)(f)), right after the disposal.
 *
 * The rule looks 30 days ahead, so the book runs 30 days behind its input: an event is settled
 * once a later event of the asset falls more than 30 days after it (or the stream ends). The book
 * keeps the events not settled yet and, for the windows, one running sum of what was acquired and
 * held per day (not per event: a settled event is dropped at once); two pointers that only move
 * forward find a window's first and last day, so the look-ahead costs O(1) per event, not a scan,
 * and the memory is the 30 days' events and the days of the 61-day window.
 */
import { upscale, type Quantity } from '../quantity.js';
import { shareOf } from './uk-matching.js';

interface Event {
  day: string;
  /** The day as days since 1970-01-01: the window's arithmetic is on numbers, not dates. */
  n: number;
  inflow: boolean;
  units: bigint;
  /** Cost (inflow, fees included) or gross proceeds (outflow), cents. */
  cents: bigint;
  /** Outlays of a disposal (its fee share), cents. */
  outlays: bigint;
  unpriced: boolean;
  reported: boolean;
  /** The caller's reference for the line (its row). */
  ref: unknown;
}

/** Every unit acquired, and the net quantity held, through the end of day `n` (at the book's scale). */
interface DaySums {
  n: number;
  acquired: bigint;
  held: bigint;
}

/** One settled disposal. */
export interface CaDisposal {
  day: string;
  quantity: Quantity;
  proceedsCents: bigint;
  acbCents: bigint;
  outlaysCents: bigint;
  /** After the denial. */
  gainCents: bigint;
  deniedCents: bigint;
  /** What the pool did not hold. */
  missing: Quantity | null;
  unpricedCost: boolean;
  unpricedProceeds: boolean;
  reported: boolean;
  ref: unknown;
}

const DAY_MS = 86_400_000;
const NONE: CaDisposal[] = [];
/**
 * Events and days are dropped from the front of their arrays in bulk, not one by one, once this
 * many (and half of the array) are done with: the events of 30 days are thousands, the days a few dozen.
 */
const DROP_EVENTS = 1024;
const DROP_DAYS = 64;
/**
 * The last day asked, its number, and that day's string kept by the events: rows come in time
 * order, so most ask the day before them did, and the events of one day share one string.
 */
let lastDay = '';
let lastNumber = 0;
/** `YYYY-MM-DD` → days since 1970-01-01 (UTC), a small integer. */
function dayNumber(day: string): number {
  if (day !== lastDay) {
    lastNumber = (Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS) | 0;
    lastDay = day;
  }
  return lastNumber;
}

export class CaAssetBook {
  /** The events not settled yet, from `next` (those before it are dropped now and then). */
  private events: Event[] = [];
  private next = 0;
  /** The running sums by day, in day order; `lo` the first day of the current window (≥ its disposal's day − 30), `hi` its last. */
  private days: DaySums[] = [];
  private lo = 0;
  private hi = 0;
  private scale = 0;
  private acquired = 0n;
  private held = 0n;
  /** The pool. */
  private qty = 0n;
  private acb = 0n;
  private unpricedPool = false;

  private units(q: Quantity): bigint {
    if (q.scale > this.scale) {
      const up = (u: bigint) => upscale(u, this.scale, q.scale);
      for (let i = this.next; i < this.events.length; i++) this.events[i]!.units = up(this.events[i]!.units);
      for (const d of this.days) {
        d.acquired = up(d.acquired);
        d.held = up(d.held);
      }
      this.acquired = up(this.acquired);
      this.held = up(this.held);
      this.qty = up(this.qty);
      this.scale = q.scale;
    }
    return upscale(q.units, q.scale, this.scale);
  }

  /** Takes an event in time order; answers the disposals it settled. */
  add(day: string, inflow: boolean, q: Quantity, cents: bigint | null, outlays: bigint, reported: boolean, ref: unknown): CaDisposal[] {
    const units = this.units(q);
    if (inflow) {
      this.acquired += units;
      this.held += units;
    } else this.held -= units;
    const n = dayNumber(day);
    const out = this.settle(n);
    const last = this.days[this.days.length - 1];
    if (last?.n === n) {
      last.acquired = this.acquired;
      last.held = this.held;
    } else this.days.push({ n, acquired: this.acquired, held: this.held });
    this.events.push({ day: lastDay, n, inflow, units, cents: cents ?? 0n, outlays, unpriced: cents === null, reported, ref });
    return out;
  }

  /** The caller's reference of the first event not settled yet (null: all are). */
  get unsettled(): unknown {
    return this.events[this.next]?.ref ?? null;
  }

  /** The stream reached `day` (no row of this asset with it): settles what is more than 30 days before it. */
  advance(day: string): CaDisposal[] {
    return this.settle(dayNumber(day));
  }

  /** The stream ended: settles the rest. */
  end(): CaDisposal[] {
    return this.settle(null);
  }

  /** Settles every event whose 30 days ahead are all known (all of them at the end: `until` null). */
  private settle(until: number | null): CaDisposal[] {
    const ev = this.events;
    // Most calls settle nothing (the first event is less than 30 days old): nothing to do.
    if (this.next >= ev.length || (until !== null && ev[this.next]!.n + 30 >= until)) return NONE;
    // Most that do settle no disposal: no array is made for them.
    let out: CaDisposal[] | null = null;
    while (this.next < ev.length && (until === null || ev[this.next]!.n + 30 < until)) {
      const e = ev[this.next]!;
      if (e.inflow) {
        this.qty += e.units;
        this.acb += e.cents;
        if (e.unpriced) this.unpricedPool = true;
      } else (out ??= []).push(this.dispose(e));
      this.next++;
    }
    if (this.next > DROP_EVENTS && this.next > ev.length / 2) {
      this.events = ev.slice(this.next);
      this.next = 0;
    }
    // Keep only the days a later window can reach (30 days back), and the day before them.
    const reach = this.next < this.events.length ? this.events[this.next]!.n - 30 : Number.POSITIVE_INFINITY;
    const days = this.days;
    while (this.lo < days.length && days[this.lo]!.n < reach) this.lo++;
    if (this.lo > DROP_DAYS && this.lo > days.length / 2) {
      const drop = this.lo - 1;
      this.days = days.slice(drop);
      this.lo -= drop;
      this.hi = Math.max(0, this.hi - drop);
    }
    return out ?? NONE;
  }

  private dispose(e: Event): CaDisposal {
    const covered = e.units < this.qty ? e.units : this.qty;
    const acb = covered === 0n ? 0n : shareOf(this.acb, covered, this.qty);
    const unpricedCost = covered > 0n && this.unpricedPool;
    this.qty -= covered;
    this.acb -= acb;
    if (this.qty === 0n) this.unpricedPool = false;
    let gain = e.cents - acb - e.outlays;
    let denied = 0n;
    if (gain < 0n) {
      const { acquired, heldAtEnd } = this.window(e);
      const least = [e.units, acquired, heldAtEnd].reduce((a, b) => (b < a ? b : a));
      if (least > 0n) {
        denied = shareOf(-gain, least, e.units);
        gain += denied;
        // The denied loss is part of the replacement's ACB: the pool's (s. 53(1)(f)).
        this.acb += denied;
      }
    }
    const missing = e.units - covered;
    return {
      day: e.day,
      quantity: { units: e.units, scale: this.scale },
      proceedsCents: e.cents,
      acbCents: acb,
      outlaysCents: e.outlays,
      gainCents: gain,
      deniedCents: denied,
      missing: missing > 0n ? { units: missing, scale: this.scale } : null,
      unpricedCost,
      unpricedProceeds: e.unpriced,
      reported: e.reported,
      ref: e.ref,
    };
  }

  /** P (acquired from 30 days before to 30 days after `e`) and B (held at the end of those days, ≥ 0). */
  private window(e: Event): { acquired: bigint; heldAtEnd: bigint } {
    const days = this.days;
    const first = e.n - 30;
    const last = e.n + 30;
    while (this.lo < days.length && days[this.lo]!.n < first) this.lo++;
    // `e`'s own day is at `lo` or after it, and within the window: the last day starts there.
    if (this.hi < this.lo) this.hi = this.lo;
    while (this.hi + 1 < days.length && days[this.hi + 1]!.n <= last) this.hi++;
    const end = days[this.hi]!;
    // Everything acquired before the window: the sum through the day before it (none: nothing).
    const before = this.lo > 0 ? days[this.lo - 1]!.acquired : 0n;
    const held = end.held;
    return { acquired: end.acquired - before, heldAtEnd: held > 0n ? held : 0n };
  }
}

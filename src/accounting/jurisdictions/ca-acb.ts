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
 * once a later event of the asset falls more than 30 days after it (or the stream ends). Running
 * sums of what was acquired and held make P and B two subtractions, and two pointers that only
 * move forward find the window's ends, so the look-ahead costs O(1) per event, not a scan.
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
  /** Every unit acquired, and the net quantity held, through this event (at the book's scale). */
  acquiredSum: bigint;
  heldSum: bigint;
  /** The caller's reference for the line (its row). */
  ref: unknown;
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
/** The last day asked and its number: rows come in time order, so most ask the day before them did. */
let lastDay = '';
let lastNumber = 0;
/** `YYYY-MM-DD` → days since 1970-01-01 (UTC). */
function dayNumber(day: string): number {
  if (day !== lastDay) {
    lastNumber = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;
    lastDay = day;
  }
  return lastNumber;
}

export class CaAssetBook {
  private events: Event[] = [];
  /** Index of the next event to settle; events before `lo` are dropped now and then. */
  private next = 0;
  /** First event of the current window (its day ≥ the disposal's day − 30), and the last one in it. */
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
      for (const e of this.events) {
        e.units = up(e.units);
        e.acquiredSum = up(e.acquiredSum);
        e.heldSum = up(e.heldSum);
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
    if (inflow) this.acquired += units;
    this.held += inflow ? units : -units;
    const n = dayNumber(day);
    const out = this.settle(n);
    this.events.push({
      day,
      n,
      inflow,
      units,
      cents: cents ?? 0n,
      outlays,
      unpriced: cents === null,
      reported,
      acquiredSum: this.acquired,
      heldSum: this.held,
      ref,
    });
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
    // Most calls settle no disposal: no array is made for them.
    let out: CaDisposal[] | null = null;
    const ev = this.events;
    while (this.next < ev.length && (until === null || ev[this.next]!.n + 30 < until)) {
      const e = ev[this.next]!;
      if (e.inflow) {
        this.qty += e.units;
        this.acb += e.cents;
        if (e.unpriced) this.unpricedPool = true;
      } else (out ??= []).push(this.dispose(e));
      this.next++;
    }
    // Keep only what a later window can reach (30 days back), dropping in bulk, not one by one.
    const reach = this.next < ev.length ? ev[this.next]!.n - 30 : Number.POSITIVE_INFINITY;
    while (this.lo < this.next && ev[this.lo]!.n < reach) this.lo++;
    if (this.lo > 1024 && this.lo > ev.length / 2) {
      this.events = ev.slice(this.lo);
      this.next -= this.lo;
      this.hi -= this.lo;
      this.lo = 0;
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
    const ev = this.events;
    const first = e.n - 30;
    const last = e.n + 30;
    while (this.lo < ev.length && ev[this.lo]!.n < first) this.lo++;
    if (this.hi < this.next) this.hi = this.next;
    while (this.hi + 1 < ev.length && ev[this.hi + 1]!.n <= last) this.hi++;
    const end = ev[this.hi]!;
    const before = this.lo > 0 ? ev[this.lo - 1]!.acquiredSum : this.acquiredBefore(ev[0]!);
    const held = end.heldSum;
    return { acquired: end.acquiredSum - before, heldAtEnd: held > 0n ? held : 0n };
  }

  /** What was acquired before the first event still kept (its own sum less itself). */
  private acquiredBefore(e: Event): bigint {
    return e.acquiredSum - (e.inflow ? e.units : 0n);
  }
}

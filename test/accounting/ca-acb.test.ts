/**
 * Canada's ACB book (src/accounting/jurisdictions/ca-acb.ts) over long streams against the rule
 * computed the plain way: each event of the asset in time order, the pool at average cost, and for
 * a loss the window of 61 days found by a scan of every event (P acquired in it, B held at its
 * end, the loss × min(S, P, B) / S denied and added to the pool). The book settles 30 days behind,
 * keeps one running sum per day and drops what no later window reaches; streams of years of daily
 * events, a scale that grows mid-stream and quiet gaps make it drop its events and days many times.
 */
import { describe, expect, it } from 'vitest';
import { type CaDisposal, CaAssetBook } from '../../src/accounting/jurisdictions/ca-acb.js';
import { shareOf } from '../../src/accounting/jurisdictions/uk-matching.js';
import { type Quantity, quantityText, upscale } from '../../src/accounting/quantity.js';

interface Ev {
  day: string;
  inflow: boolean;
  q: Quantity;
  cents: bigint | null;
  outlays: bigint;
}

const DAY_MS = 86_400_000;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const numberOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** A small deterministic generator (mulberry32): the streams are the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `days` days from 2015-01-01 of buys and sells, none on some days (gaps up to ~70 days), the
 * scale 2 then 6 from half-way. `mixed`: several a day, prices wander so sells gain and lose,
 * seasons of buying and of selling. `thin`: a large holding bought dear first, then now and then a
 * small buy and a larger sell at a loss, so what was bought in the 61 days (P) is what limits the
 * denial and each buy at a window's edge counts.
 */
function stream(seed: number, days: number, profile: 'mixed' | 'thin'): Ev[] {
  const rnd = random(seed);
  const out: Ev[] = [];
  let n = numberOf('2015-01-01');
  const event = (inflow: boolean, whole: number, price: number, scale: number) => {
    const units = BigInt(whole) * 10n ** BigInt(scale - 2);
    const unpriced = rnd() < 0.02;
    out.push({
      day: dayOf(n),
      inflow,
      q: { units, scale },
      cents: unpriced ? null : (units * BigInt(price)) / 10n ** BigInt(scale - 2),
      outlays: inflow ? 0n : BigInt(Math.floor(rnd() * 3)),
    });
  };
  if (profile === 'thin') event(true, 1_000_000, 300, 2);
  for (let d = 0; d < days; d++) {
    n += rnd() < 0.03 ? 1 + Math.floor(rnd() * 70) : 1;
    const scale = d < days / 2 ? 2 : 6;
    const price = 50 + Math.floor(rnd() * 100);
    if (profile === 'thin') {
      if (rnd() < 0.35) event(true, 1 + Math.floor(rnd() * 20), price, scale);
      if (rnd() < 0.3) event(false, 50 + Math.floor(rnd() * 250), price, scale);
      continue;
    }
    // Every third season of 150 days mostly sells: a loss then often exceeds what was bought back.
    const buying = Math.floor(d / 150) % 3 !== 2 ? 0.55 : 0.1;
    for (let k = Math.floor(rnd() * 4); k >= 0; k--) {
      const inflow = rnd() < buying;
      event(inflow, 1 + Math.floor(rnd() * 500), price, scale);
    }
  }
  return out;
}

/** The disposals of `events` computed the plain way (every quantity at scale 6, the largest). */
function plain(events: Ev[]): Omit<CaDisposal, 'quantity' | 'missing' | 'ref' | 'reported'>[] {
  const u = (q: Quantity) => upscale(q.units, q.scale, 6);
  let qty = 0n;
  let acb = 0n;
  let unpricedPool = false;
  const out: Omit<CaDisposal, 'quantity' | 'missing' | 'ref' | 'reported'>[] = [];
  const units = events.map((e) => u(e.q));
  const days = events.map((e) => numberOf(e.day));
  // The net quantity held through each event.
  const heldAfter: bigint[] = [];
  events.forEach((e, i) => heldAfter.push((heldAfter[i - 1] ?? 0n) + (e.inflow ? units[i]! : -units[i]!)));
  events.forEach((e, i) => {
    const cents = e.cents ?? 0n;
    if (e.inflow) {
      qty += units[i]!;
      acb += cents;
      if (e.cents === null) unpricedPool = true;
      return;
    }
    const covered = units[i]! < qty ? units[i]! : qty;
    const cost = covered === 0n ? 0n : shareOf(acb, covered, qty);
    const unpricedCost = covered > 0n && unpricedPool;
    qty -= covered;
    acb -= cost;
    if (qty === 0n) unpricedPool = false;
    let gain = cents - cost - e.outlays;
    let denied = 0n;
    if (gain < 0n) {
      // The window's events: back from this one to 30 days before, on to 30 days after.
      let acquired = 0n;
      let first = i;
      while (first > 0 && days[first - 1]! >= days[i]! - 30) first--;
      let last = i;
      while (last + 1 < events.length && days[last + 1]! <= days[i]! + 30) last++;
      for (let j = first; j <= last; j++) if (events[j]!.inflow) acquired += units[j]!;
      const held = heldAfter[last]!;
      const least = [units[i]!, acquired, held > 0n ? held : 0n].reduce((a, b) => (b < a ? b : a));
      if (least > 0n) {
        denied = shareOf(-gain, least, units[i]!);
        gain += denied;
        acb += denied;
      }
    }
    out.push({
      day: e.day,
      proceedsCents: cents,
      acbCents: cost,
      outlaysCents: e.outlays,
      gainCents: gain,
      deniedCents: denied,
      unpricedCost,
      unpricedProceeds: e.cents === null,
    });
  });
  return out;
}

/** The book's disposals of `events`, fed in order, `advance` asked now and then as the report does. */
function booked(events: Ev[]): CaDisposal[] {
  const book = new CaAssetBook();
  const out: CaDisposal[] = [];
  events.forEach((e, i) => {
    out.push(...book.add(e.day, e.inflow, e.q, e.cents, e.outlays, true, i));
    if (i % 97 === 0) out.push(...book.advance(e.day));
  });
  out.push(...book.end());
  return out;
}

describe('the ACB book against the rule computed the plain way', () => {
  const cases = [
    { seed: 1, profile: 'mixed' },
    { seed: 2, profile: 'mixed' },
    { seed: 3, profile: 'thin' },
    { seed: 4, profile: 'thin' },
  ] as const;
  for (const { seed, profile } of cases) {
    it(`${profile} ${seed}: 4,000 days of trades, the same disposals, in order`, () => {
      const events = stream(seed, 4000, profile);
      const got = booked(events);
      const want = plain(events);
      expect(got.map((d) => d.ref)).toEqual(events.flatMap((e, i) => (e.inflow ? [] : [i])));
      expect(got.map(({ quantity, missing, ref, reported, ...rest }) => rest)).toEqual(want);
      // Quantities as the report prints them, whatever the scale when they settled.
      expect(got.map((d) => quantityText(d.quantity))).toEqual(events.filter((e) => !e.inflow).map((e) => quantityText(e.q)));
      // The stream has losses that were denied in part and losses that were not.
      expect(want.filter((d) => d.deniedCents > 0n && d.gainCents < 0n).length).toBeGreaterThan(profile === 'thin' ? 500 : 0);
      expect(want.filter((d) => d.deniedCents === 0n && d.gainCents < 0n).length).toBeGreaterThan(0);
      // And, in the mixed streams, losses denied in full.
      if (profile === 'mixed') expect(want.filter((d) => d.deniedCents > 0n && d.gainCents === 0n).length).toBeGreaterThan(0);
    });
  }
});

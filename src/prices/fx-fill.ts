/**
 * `txa rates fill` (docs/prices.md "Exchange rates"): the workspace's daily rates from its base
 * currency, from the European Central Bank's euro reference rates.
 *
 * - The ECB's quotes go into a ledger-wide cache (store/fx.ts) with, per currency, the days it is
 *   complete for. A fill asks only for what the cache lacks: the 90-day file when that starts
 *   within its reach, else the historical file (every day since 1999, one download); a second
 *   fill of stored days sends nothing.
 * - A day is complete once it is over in UTC (the ECB publishes at about 16:00 CET, never later
 *   for a past day) or once the file holds it. A day not complete yet gets no rate: a report
 *   that needs it fails naming it (MISSING_RATE) rather than guessing.
 * - Rates are cross rates through the euro: base→X = (X per EUR) ÷ (base per EUR), computed
 *   exactly and rounded half to even to 12 decimal places (RATE_DP). A day the ECB published
 *   nothing (weekends, TARGET holidays) takes the last earlier published day's rate, at most
 *   MAX_CARRY_DAYS back, and the stored rate says which day it is (`published_day`).
 * - An imported rate (txa rates import) is the user's and is kept.
 */
import Big from 'big.js';
import type { Engine } from '../engine/engine.js';
import { TxaError } from '../core/errors.js';
import { DAY_SECONDS, dayOf, epochDay, requireDay } from '../core/dates.js';
import { nowIso, nowSeconds } from '../core/clock.js';
import { JURISDICTION_CURRENCY } from '../core/jurisdictions.js';
import { fxCoverage, fxQuotes, putFxQuote, setFxCoverage } from '../store/fx.js';
import { firstValuedDay, listRateRows, upsertEcbRate } from '../store/rates.js';
import type { EcbClient, FxFile } from './ecb.js';
import type { Published } from './ecb-files.js';

/** Decimal places of a stored cross rate: a value of 10^11 cents converts within a twentieth of a cent. */
export const RATE_DP = 12;

/** How far back a day without a publication looks for the last published one (Easter's closure is 4 days). */
export const MAX_CARRY_DAYS = 7;

/** Days before today the 90-day file is asked for instead of the historical one (it reaches 90 days back). */
const RECENT_REACH_DAYS = 80;

/** A Big whose divisions round half to even at RATE_DP places, leaving big.js's global settings alone. */
const FxBig = Big();
FxBig.DP = RATE_DP;
FxBig.RM = Big.roundHalfEven;

export interface RatesFillOptions {
  /** First day to fill (default: the day of the workspace's earliest valued row). */
  from?: string;
  /** Last day (default: yesterday, the last day surely complete). */
  to?: string;
  /** Three-letter codes (default: the currencies of the jurisdictions, less the base). */
  currencies?: string[];
}

export interface RatesFillResult {
  from: string | null;
  to: string;
  base: string;
  currencies: string[];
  /** Days of the range now holding an ECB rate (written, or stored as they are by an earlier fill). */
  rates: number;
  /** Of them, days that took an earlier published day's rate. */
  earlier_day: number;
  /** Days with an imported rate, kept. */
  kept: number;
  /** Days left without a rate: not published within MAX_CARRY_DAYS, or not complete yet. */
  unfilled: number;
  /** HTTP requests sent (retries included); 0 when the cache had every day. */
  requests: number;
}

export interface RatesFill {
  result: RatesFillResult;
  /** One line each on stderr: which days took an earlier day's rate, which stayed without one. */
  notices: string[];
}

const day = (d: number) => dayOf(d * DAY_SECONDS);
const dayNumber = (text: string, field: string) => epochDay(requireDay(text, field, 'INVALID_FIELD'));

function checkCurrencies(codes: string[] | undefined, base: string): string[] {
  const asked = codes ?? [...new Set(Object.values(JURISDICTION_CURRENCY))];
  const out: string[] = [];
  for (const raw of asked) {
    const c = raw.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(c)) throw new TxaError('INVALID_FIELD', `currency must be three-letter codes such as GBP,CAD, got '${raw}'`, { field: 'currency' });
    if (c !== base && !out.includes(c)) out.push(c);
  }
  if (out.length === 0) {
    throw new TxaError('INVALID_FIELD', `${base} is the workspace's base currency: it needs no rate`, {
      field: 'currency',
      hint: 'Name another currency: --currency GBP',
    });
  }
  return out;
}

/** The file to fetch for the days from `start`, or none when the cache holds every day asked. */
function staleFrom(engine: Engine, wanted: string[], needFrom: number, to: number): number | undefined {
  let start: number | undefined;
  for (const c of wanted) {
    const cov = fxCoverage(engine.db, c);
    const first = cov && dayNumber(cov.first_day, 'first_day');
    const through = cov && dayNumber(cov.through_day, 'through_day');
    if (cov && first! <= needFrom && through! >= to) continue;
    const from = cov && first! <= needFrom ? through! + 1 : needFrom;
    start = start === undefined ? from : Math.min(start, from);
  }
  return start;
}

/** Fetches what the cache lacks from `start`: the 90-day file when it reaches back that far and names every currency, else the historical one. */
async function fetchFrom(engine: Engine, client: EcbClient, wanted: string[], start: number, today: number): Promise<{ file: Published; whole: boolean }> {
  const lacks = (p: Published) => wanted.filter((c) => !p.currencies.has(c) && !fxCoverage(engine.db, c));
  if (start >= today - RECENT_REACH_DAYS) {
    const recent = await client.fetch('recent' satisfies FxFile);
    if (recent.first !== undefined && recent.first <= day(start) && lacks(recent).length === 0) return { file: recent, whole: false };
  }
  const hist = await client.fetch('hist');
  const unknown = lacks(hist);
  if (unknown.length > 0) {
    throw new TxaError(
      'INVALID_FIELD',
      `the ECB publishes no reference rate of ${unknown.join(', ')}; it publishes ${[...hist.currencies].sort().join(', ')}`,
      {
        field: 'currency',
        hint: "Rates through the euro need the workspace's base currency among them too; for others, import a file: txa rates import FILE",
      },
    );
  }
  if (hist.first === undefined) throw new TxaError('SYNC_FAILED', `the ECB's ${hist.file} holds no day`, { field: 'TXA_FX_URL' });
  return { file: hist, whole: true };
}

/** The first day a historical file's cache is complete from: it holds every publication since the ECB's first (1999-01-04), so every day before. */
const BEFORE_ALL = '1900-01-01';

/** Stores a file's quotes of the wanted currencies and what the cache is now complete for. */
function storeFile(engine: Engine, p: Published, wanted: string[], today: number, whole: boolean): void {
  const settled = Math.max(dayNumber(p.last!, 'last'), today - 1);
  const fetchedAt = nowIso();
  for (const c of wanted) {
    for (const [d, quotes] of p.days) {
      const q = quotes.get(c);
      if (q !== undefined) putFxQuote(engine.db, c, d, q);
    }
    const cov = fxCoverage(engine.db, c);
    const fileFirst = whole ? BEFORE_ALL : p.first!;
    // A file that starts after the cache's end leaves a hole: the cache is complete from the file's start only.
    const joined = cov !== undefined && dayNumber(cov.through_day, 'through_day') + 1 >= dayNumber(fileFirst, 'first') && cov.first_day <= fileFirst;
    const first = joined ? cov.first_day : fileFirst;
    const through = joined && dayNumber(cov.through_day, 'through_day') > settled ? cov.through_day : day(settled);
    setFxCoverage(engine.db, c, { first_day: first, through_day: through, fetched_at: fetchedAt });
  }
}

/** The quotes of the pair's non-euro currencies, and the days all of them were published. */
function pairDays(engine: Engine, pair: string[], from: number, to: number): { days: number[]; quote: (c: string, d: number) => string } {
  const maps = new Map<string, Map<number, string>>();
  for (const c of pair) {
    if (c === 'EUR') continue;
    maps.set(c, new Map(fxQuotes(engine.db, c, day(from), day(to)).map((q) => [dayNumber(q.day, 'day'), q.per_eur])));
  }
  const [firstMap, ...others] = [...maps.values()];
  const days = [...firstMap!.keys()].filter((d) => others.every((m) => m.has(d))).sort((a, b) => a - b);
  return { days, quote: (c, d) => (c === 'EUR' ? '1' : maps.get(c)!.get(d)!) };
}

function completeThrough(engine: Engine, pair: string[]): number {
  return Math.min(...pair.filter((c) => c !== 'EUR').map((c) => dayNumber(fxCoverage(engine.db, c)!.through_day, 'through_day')));
}

/** base→X on a published day: X per euro ÷ base per euro, at RATE_DP places half to even. */
export function crossRate(perEurX: string, perEurBase: string): string {
  return new FxBig(perEurX).div(perEurBase).toFixed();
}

export async function fillRates(engine: Engine, workspaceId: string, opts: RatesFillOptions, client: EcbClient): Promise<RatesFill> {
  const ws = engine.workspace(workspaceId);
  const base = ws.base_currency.toUpperCase();
  const currencies = checkCurrencies(opts.currencies, base);
  const today = epochDay(nowSeconds());
  const to = opts.to === undefined ? today - 1 : dayNumber(opts.to, 'to');
  if (to > today) throw new TxaError('INVALID_FIELD', `to ${opts.to} is after today (${day(today)}): the ECB has published no rate for it`, { field: 'to' });
  const from = opts.from === undefined ? Math.min(firstValuedDay(engine.db, workspaceId) ?? to + 1, to + 1) : dayNumber(opts.from, 'from');
  if (from > to && opts.from !== undefined) throw new TxaError('INVALID_DATE_RANGE', `from ${opts.from} is after to ${day(to)}`, { field: 'from' });
  const result: RatesFillResult = {
    from: from > to ? null : day(from),
    to: day(to),
    base,
    currencies,
    rates: 0,
    earlier_day: 0,
    kept: 0,
    unfilled: 0,
    requests: 0,
  };
  const notices: string[] = [];
  // No valued row and no --from: nothing needs a rate.
  if (from > to) return { result, notices };

  const needFrom = from - MAX_CARRY_DAYS;
  const wanted = [...new Set([base, ...currencies])].filter((c) => c !== 'EUR');
  const start = staleFrom(engine, wanted, needFrom, to);
  const fetched = start === undefined ? undefined : await fetchFrom(engine, client, wanted, start, today);
  result.requests = client.requests;

  const earlier: string[] = [];
  const unfilled: string[] = [];
  let pending = 0;
  engine.write(() => {
    if (fetched) storeFile(engine, fetched.file, wanted, today, fetched.whole);
    for (const c of currencies) {
      const pair = [c, base];
      const { days, quote } = pairDays(engine, pair, needFrom, to);
      const through = Math.min(to, completeThrough(engine, pair));
      let i = -1;
      let lastRate: { p: number; rate: string } | undefined;
      // What the workspace holds already: a rate stored as it would be now is not written again.
      const stored = new Map(listRateRows(engine.db, workspaceId, c).map((r) => [r.date, r]));
      for (let d = from; d <= through; d++) {
        while (i + 1 < days.length && days[i + 1]! <= d) i++;
        const p = i >= 0 ? days[i]! : undefined;
        if (p === undefined || d - p > MAX_CARRY_DAYS) {
          result.unfilled++;
          if (unfilled.length < 3) unfilled.push(`${day(d)} (${c})`);
          continue;
        }
        // A weekend's days share their Friday's rate: divide once per published day.
        const rate = lastRate?.p === p ? lastRate.rate : crossRate(quote(c, p), quote(base, p));
        lastRate = { p, rate };
        const held = stored.get(day(d));
        if (held?.source === 'import') {
          result.kept++;
          continue;
        }
        if (held?.rate !== rate || held.published_day !== day(p)) upsertEcbRate(engine.db, workspaceId, { date: day(d), currency: c, rate }, day(p));
        result.rates++;
        if (p !== d) {
          result.earlier_day++;
          if (earlier.length < 3) earlier.push(`${day(d)} ${c} uses ${day(p)}`);
        }
      }
      if (through < to) {
        result.unfilled += to - through;
        pending += to - through;
      }
    }
  });
  const s = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  if (result.earlier_day > 0)
    notices.push(
      `${s(result.earlier_day, 'day')} without an ECB publication (weekends, TARGET holidays) take the last earlier published day's rate, e.g. ${earlier.join(', ')}`,
    );
  if (result.kept > 0) notices.push(`${s(result.kept, 'imported rate')} kept (txa rates import wins over the ECB's)`);
  if (unfilled.length > 0)
    notices.push(
      `${s(result.unfilled - pending, 'day')} left without a rate: the ECB published none within ${MAX_CARRY_DAYS} days before, e.g. ${unfilled.join(', ')}`,
    );
  if (pending > 0)
    notices.push(
      `${s(pending, 'currency-day')} up to ${day(to)} not published yet (the ECB publishes about 16:00 CET on working days); run the fill again later`,
    );
  return { result, notices };
}

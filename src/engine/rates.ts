/**
 * Daily FX rates and the currency conversion of exports (docs/exports.md "Currency"). A rate says how many units
 * of `currency` one unit of the workspace's base currency buys on that UTC day. Conversions are
 * exact (big.js) and rounded half-to-even to cents per transaction; a day without a rate is an
 * error naming it, never a silent 1.0.
 */
import Big from 'big.js';
import type { Engine } from './engine.js';
import { readTableFile, type CsvParse } from './table-file.js';
import { TxaError } from '../core/errors.js';
import { normalizeDecimal } from '../core/money.js';
import { DAY_SECONDS, dayOf, parseDay } from '../core/dates.js';
import type { TxFilter } from '../core/filters.js';
import type { ReportNote, Workspace } from '../core/types.js';
import type { RowError } from '../importers/types.js';
import { whereOf } from '../store/transactions.js';
import { listRateRows, upsertRate, valuedDays, type RateRow, type StoredRate } from '../store/rates.js';

/** A day's rate from the base currency to `currency`, as `txa rates list` shows it. */
export type Rate = RateRow;

function parseRateRows(text: string, parse: CsvParse): { rates: Rate[]; errors: RowError[] } {
  const records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as {
    record: string[];
    info: { lines: number };
  }[];
  const errors: RowError[] = [];
  const rates: Rate[] = [];
  const head = records[0]?.record.map((h) => h.toLowerCase()) ?? [];
  const at = { date: head.indexOf('date'), currency: head.indexOf('currency'), rate: head.indexOf('rate') };
  for (const [name, index] of Object.entries(at)) {
    if (index < 0) errors.push({ line: 1, field: name, reason: 'the header must name the columns date, currency, rate' });
  }
  if (errors.length) return { rates, errors };
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    const date = record[at.date] ?? '';
    const currency = (record[at.currency] ?? '').toUpperCase();
    const rate = normalizeDecimal(record[at.rate] ?? '');
    if (parseDay(date) === null) errors.push({ line, field: 'date', reason: `'${date}' is not a date YYYY-MM-DD` });
    else if (!/^[A-Z]{3}$/.test(currency))
      errors.push({ line, field: 'currency', reason: `'${record[at.currency] ?? ''}' is not a three-letter currency code` });
    else if (rate === null || rate.startsWith('-') || rate === '0')
      errors.push({ line, field: 'rate', reason: `'${record[at.rate] ?? ''}' is not a positive number` });
    else rates.push({ date, currency, rate });
  }
  return { rates, errors };
}

/** Imports a CSV `date,currency,rate` file: all rows or, when any row is bad, none (IMPORT_FAILED lists them). */
export async function importRates(engine: Engine, workspaceId: string, path: string): Promise<{ imported: number }> {
  engine.workspace(workspaceId);
  const rates = await readTableFile(path, (text, parse) => {
    const { rates: rows, errors } = parseRateRows(text, parse);
    return { rows, errors };
  });
  engine.write(() => {
    for (const r of rates) upsertRate(engine.db, workspaceId, r);
  });
  return { imported: rates.length };
}

/** The stored rates, each with its source (`import`, or `ecb` with the day the ECB published it). */
export function listRates(engine: Engine, workspaceId: string, currency?: string): StoredRate[] {
  engine.workspace(workspaceId);
  return listRateRows(engine.db, workspaceId, currency?.toUpperCase());
}

/**
 * Converts integer cents of the base currency at a transaction's timestamp. `earlier` lists the
 * days converted at an ECB rate of an earlier published day (a weekend, a TARGET holiday).
 */
export type Convert = ((cents: number | null, ts: number) => number | null) & { earlier?: EarlierRates };

export interface EarlierRates {
  pair: string;
  /** Each such day and the published day its rate is, in order. */
  days: { day: string; published: string }[];
}

export const identity: Convert = (cents) => cents;

/**
 * The conversion of a filter's rows into `currency`. Checks up front that every day with a
 * valued transaction has a rate, so a missing one fails before any file is written.
 */
export function conversionFor(engine: Engine, ws: Workspace, currency: string, filter: TxFilter): Convert {
  if (currency === ws.base_currency) return identity;
  const rates = new Map<number, Big>();
  const published = new Map<number, string>();
  for (const r of listRateRows(engine.db, ws.id, currency)) {
    const d = parseDay(r.date)! / DAY_SECONDS;
    rates.set(d, new Big(r.rate));
    if (r.published_day !== null && r.published_day !== r.date) published.set(d, r.published_day);
  }
  const days = valuedDays(engine.db, whereOf(ws.id, filter));
  const missing = days.find((d) => !rates.has(d));
  if (missing !== undefined) {
    throw new TxaError('MISSING_RATE', `no ${ws.base_currency}→${currency} rate for ${dayOf(missing * DAY_SECONDS)}`, {
      field: 'options.currency',
      hint: `Fetch the ECB's reference rates with: txa rates fill --currency ${currency} (or import a file: txa rates import FILE), or export in ${ws.base_currency}.`,
    });
  }
  const convert: Convert = (cents, ts) => {
    if (cents === null) return null;
    const rate = rates.get(Math.floor(ts / DAY_SECONDS));
    if (rate === undefined) throw new TxaError('MISSING_RATE', `no ${ws.base_currency}→${currency} rate for ${dayOf(ts)}`, { field: 'options.currency' });
    return new Big(cents).times(rate).round(0, Big.roundHalfEven).toNumber();
  };
  const earlier = days.flatMap((d) => (published.has(d) ? [{ day: dayOf(d * DAY_SECONDS), published: published.get(d)! }] : []));
  if (earlier.length > 0) convert.earlier = { pair: `${ws.base_currency}→${currency}`, days: earlier };
  return convert;
}

/** How many examples a rate note names. */
const NOTE_EXAMPLES = 5;

/** The report note saying which days were converted at an earlier published day's rate (docs/prices.md "Exchange rates"); none when no day was. */
export function rateNotes(convert: Convert): ReportNote[] {
  const e = convert.earlier;
  if (!e) return [];
  const n = e.days.length;
  const shown = e.days.slice(0, NOTE_EXAMPLES).map((d) => `${d.day} uses ${d.published}`);
  const more = n > NOTE_EXAMPLES ? `, and ${n - NOTE_EXAMPLES} more` : '';
  return [
    {
      kind: 'earlier_rate',
      count: n,
      message: `${n} ${n === 1 ? 'day has' : 'days have'} no ECB reference rate (weekends, TARGET holidays): values on ${n === 1 ? 'it are' : 'them are'} converted ${e.pair} at the last earlier published day's rate (${shown.join(', ')}${more}); txa rates list shows each`,
    },
  ];
}

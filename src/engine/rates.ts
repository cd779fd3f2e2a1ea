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
import type { Workspace } from '../core/types.js';
import type { RowError } from '../importers/types.js';
import { whereOf } from '../store/transactions.js';
import { listRateRows, upsertRate, valuedDays, type RateRow } from '../store/rates.js';

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

export function listRates(engine: Engine, workspaceId: string, currency?: string): Rate[] {
  engine.workspace(workspaceId);
  return listRateRows(engine.db, workspaceId, currency?.toUpperCase());
}

/** Converts integer cents of the base currency at a transaction's timestamp. */
export type Convert = (cents: number | null, ts: number) => number | null;

export const identity: Convert = (cents) => cents;

/**
 * The conversion of a filter's rows into `currency`. Checks up front that every day with a
 * valued transaction has a rate, so a missing one fails before any file is written.
 */
export function conversionFor(engine: Engine, ws: Workspace, currency: string, filter: TxFilter): Convert {
  if (currency === ws.base_currency) return identity;
  const rates = new Map<number, Big>();
  for (const r of listRateRows(engine.db, ws.id, currency)) rates.set(parseDay(r.date)! / DAY_SECONDS, new Big(r.rate));
  const days = valuedDays(engine.db, whereOf(ws.id, filter));
  const missing = days.find((d) => !rates.has(d));
  if (missing !== undefined) {
    throw new TxaError('MISSING_RATE', `no ${ws.base_currency}→${currency} rate for ${dayOf(missing * DAY_SECONDS)}`, {
      field: 'options.currency',
      hint: `Import daily rates with: txa rates import FILE (CSV date,currency,rate), or export in ${ws.base_currency}.`,
    });
  }
  return (cents, ts) => {
    if (cents === null) return null;
    const rate = rates.get(Math.floor(ts / DAY_SECONDS));
    if (rate === undefined) throw new TxaError('MISSING_RATE', `no ${ws.base_currency}→${currency} rate for ${dayOf(ts)}`, { field: 'options.currency' });
    return new Big(cents).times(rate).round(0, Big.roundHalfEven).toNumber();
  };
}

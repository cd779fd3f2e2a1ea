/**
 * `txa prices import FILE`: a CSV `date,token,price[,currency]` (docs/prices.md "`txa prices import FILE`") into the price
 * cache as source `import`, for offline use and for tokens no API prices. All rows or, when any
 * row is bad, none: IMPORT_FAILED lists each bad row's line, field and reason. A price imported
 * again for the same token and day replaces the old one.
 */
import { CHAIN_INFO } from '../core/chains.js';
import { parseDay } from '../core/dates.js';
import { normalizeDecimal } from '../core/money.js';
import { nowIso } from '../core/clock.js';
import type { Engine } from '../engine/engine.js';
import { readTableFile, type CsvParse } from '../engine/table-file.js';
import type { RowError } from '../importers/types.js';
import { putPrices, type PriceEntry } from '../store/prices.js';

const CHAIN_TOKEN = /^([a-z0-9]+):(0x[0-9a-f]{40})$/i;

/** The cache's key of a `token` cell, or why it is none: `chain:address` lower-cased, a symbol upper-cased. */
function tokenKey(text: string): { key: string } | { reason: string } {
  const m = CHAIN_TOKEN.exec(text);
  if (m) {
    const chain = m[1]!.toLowerCase();
    if (!Object.hasOwn(CHAIN_INFO, chain)) return { reason: `unknown chain '${m[1]}' (known: ${Object.keys(CHAIN_INFO).join(', ')})` };
    return { key: `${chain}:${m[2]!.toLowerCase()}` };
  }
  if (text === '' || text.includes(':') || /\s/.test(text) || text.length > 64) {
    return { reason: `'${text}' is neither a token symbol nor chain:address (e.g. ethereum:0xa0b8…eb48)` };
  }
  return { key: text.toUpperCase() };
}

function parseRows(text: string, parse: CsvParse): { entries: PriceEntry[]; errors: RowError[] } {
  const records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as {
    record: string[];
    info: { lines: number };
  }[];
  const head = records[0]?.record.map((h) => h.toLowerCase()) ?? [];
  const at = { date: head.indexOf('date'), token: head.indexOf('token'), price: head.indexOf('price'), currency: head.indexOf('currency') };
  const errors: RowError[] = [];
  for (const name of ['date', 'token', 'price'] as const) {
    if (at[name] < 0) errors.push({ line: 1, field: name, reason: 'the header must name the columns date, token, price (and optionally currency)' });
  }
  const entries: PriceEntry[] = [];
  if (errors.length) return { entries, errors };
  const fetchedAt = nowIso();
  const seen = new Map<string, number>();
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    const cell = (i: number) => (i < 0 ? '' : (record[i] ?? ''));
    const date = cell(at.date);
    const token = tokenKey(cell(at.token));
    const price = normalizeDecimal(cell(at.price));
    const currency = (cell(at.currency) || 'USD').toUpperCase();
    if (parseDay(date) === null) errors.push({ line, field: 'date', reason: `'${date}' is not a date YYYY-MM-DD` });
    else if ('reason' in token) errors.push({ line, field: 'token', reason: token.reason });
    else if (price === null || price.startsWith('-') || price === '0')
      errors.push({ line, field: 'price', reason: `'${cell(at.price)}' is not a positive number` });
    else if (!/^[A-Z]{3}$/.test(currency)) errors.push({ line, field: 'currency', reason: `'${cell(at.currency)}' is not a three-letter currency code` });
    else if (seen.has(`${token.key}|${date}`))
      errors.push({ line, field: 'token', reason: `${token.key} on ${date} is priced on line ${seen.get(`${token.key}|${date}`)} already` });
    else {
      seen.set(`${token.key}|${date}`, line);
      entries.push({ source: 'import', token: token.key, day: date, price, currency, price_ts: null, fetched_at: fetchedAt });
    }
  }
  return { entries, errors };
}

export async function importPrices(engine: Engine, path: string): Promise<{ imported: number }> {
  const entries = await readTableFile(path, (text, parse) => {
    const { entries: rows, errors } = parseRows(text, parse);
    return { rows, errors };
  });
  engine.write(() => putPrices(engine.db, entries));
  return { imported: entries.length };
}

/**
 * The European Central Bank's reference-rate files as it publishes them (docs/prices.md "Exchange
 * rates"), read strictly: a file that is not one (an HTML page), a day that is no date, a
 * duplicate day, a quote that is no positive number is SYNC_FAILED naming the file, the line and
 * the field, and nothing of it is used.
 * - The historical CSV (inside eurofxref-hist.zip): `Date,USD,JPY,…,` (a trailing comma on every
 *   line), newest day first, `N/A` where a currency had no quote that day.
 * - The XML files (eurofxref-hist-90d.xml, eurofxref-daily.xml, eurofxref-hist.xml): a
 *   `gesmes:Envelope` with one `<Cube time='YYYY-MM-DD'>` per day holding
 *   `<Cube currency='USD' rate='1.0944'/>` per currency. The layout is flat and fixed, so its tags
 *   are read by pattern rather than with an XML library.
 */
import { TxaError } from '../core/errors.js';
import { parseDay } from '../core/dates.js';

/** What one file says: each publication day's quotes (units of the currency per euro, decimal text as written). */
export interface Published {
  file: string;
  days: Map<string, Map<string, string>>;
  /** The first and last day with quotes; undefined for a file without any. */
  first?: string;
  last?: string;
  currencies: Set<string>;
}

/** A quote: a positive decimal as the ECB writes them (no sign, no exponent). */
const QUOTE = /^\d+(\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;

function bad(file: string, field: string, what: string): TxaError {
  return new TxaError('SYNC_FAILED', `the ECB's ${file} is not usable: ${what}; nothing was stored`, {
    field,
    hint: 'TXA_FX_URL names the directory of the ECB files (default https://www.ecb.europa.eu/stats/eurofxref); run txa rates fill again later.',
  });
}

/** A short, printable start of a body that is not what was asked for. */
export function snippet(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  return JSON.stringify(s);
}

const looksHtml = (text: string) => /^\s*<(!doctype html|html|head|body)\b/i.test(text);

/** Refuses a body that is an HTML page (a portal, the ECB's website), which a wrong TXA_FX_URL or a proxy answers with 200. */
export function refuseHtml(file: string, text: string): void {
  if (looksHtml(text)) throw bad(file, 'TXA_FX_URL', `the server answered an HTML page (${snippet(text)}), not the file`);
}

function published(file: string): Published {
  return { file, days: new Map(), currencies: new Set() };
}

function addDay(p: Published, day: string, quotes: Map<string, string>): void {
  p.days.set(day, quotes);
  for (const c of quotes.keys()) p.currencies.add(c);
  if (quotes.size === 0) return;
  if (p.first === undefined || day < p.first) p.first = day;
  if (p.last === undefined || day > p.last) p.last = day;
}

/** The historical CSV. */
export function parseHistCsv(file: string, text: string): Published {
  refuseHtml(file, text);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((c) => c.trim());
  if (header.at(-1) === '') header.pop();
  if (header[0] !== 'Date') throw bad(file, 'Date', `line 1 must begin with the column Date, got ${snippet(lines[0] ?? '')}`);
  header.forEach((c, i) => {
    if (i > 0 && !CURRENCY.test(c)) throw bad(file, 'header', `line 1, column ${i + 1}: '${c}' is not a currency code`);
  });
  const p = published(file);
  lines.forEach((line, index) => {
    if (index === 0 || line.trim() === '') return;
    const n = index + 1;
    const cells = line.split(',').map((c) => c.trim());
    if (cells.length === header.length + 1 && cells.at(-1) === '') cells.pop();
    const day = cells[0] ?? '';
    if (parseDay(day) === null) throw bad(file, 'Date', `line ${n}: '${day}' is not a day YYYY-MM-DD`);
    if (cells.length !== header.length) throw bad(file, 'Date', `line ${n} (${day}) has ${cells.length} cells, the header ${header.length}`);
    if (p.days.has(day)) throw bad(file, 'Date', `line ${n}: the day ${day} appears twice`);
    const quotes = new Map<string, string>();
    for (let i = 1; i < header.length; i++) {
      const cell = cells[i]!;
      if (cell === 'N/A') continue;
      if (!QUOTE.test(cell) || Number(cell) === 0) throw bad(file, header[i]!, `line ${n} (${day}), ${header[i]}: '${cell}' is not a positive number`);
      quotes.set(header[i]!, cell);
    }
    addDay(p, day, quotes);
  });
  return p;
}

const TAG = /<Cube\b([^>]*)>/g;
const ATTR = /([A-Za-z_][\w.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g;

function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ATTR)) out.set(m[1]!, m[2] ?? m[3] ?? '');
  return out;
}

/** The line (1-based) of an offset, for errors. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** An XML file of the `gesmes:Envelope` kind. */
export function parseEnvelopeXml(file: string, text: string): Published {
  refuseHtml(file, text);
  if (!/<gesmes:Envelope\b/.test(text)) throw bad(file, 'TXA_FX_URL', `the answer is no gesmes:Envelope of reference rates (${snippet(text)})`);
  const p = published(file);
  let day: string | undefined;
  let quotes = new Map<string, string>();
  const close = () => {
    if (day !== undefined) addDay(p, day, quotes);
  };
  for (const m of text.matchAll(TAG)) {
    const a = attributes(m[1]!);
    const n = lineAt(text, m.index);
    if (a.has('time')) {
      close();
      const time = a.get('time')!;
      if (parseDay(time) === null) throw bad(file, 'time', `line ${n}: '${time}' is not a day YYYY-MM-DD`);
      if (p.days.has(time)) throw bad(file, 'time', `line ${n}: the day ${time} appears twice`);
      day = time;
      quotes = new Map();
    } else if (a.has('currency') || a.has('rate')) {
      const currency = a.get('currency') ?? '';
      const rate = a.get('rate') ?? '';
      if (day === undefined) throw bad(file, 'time', `line ${n}: a rate of '${currency}' outside any day (no Cube time= before it)`);
      if (!CURRENCY.test(currency)) throw bad(file, 'currency', `line ${n} (${day}): '${currency}' is not a currency code`);
      if (!QUOTE.test(rate) || Number(rate) === 0) throw bad(file, currency, `line ${n} (${day}), ${currency}: rate '${rate}' is not a positive number`);
      if (quotes.has(currency)) throw bad(file, currency, `line ${n} (${day}): ${currency} appears twice`);
      quotes.set(currency, rate);
    }
  }
  close();
  return p;
}

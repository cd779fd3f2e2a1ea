/**
 * Field parsers shared by the importers. Each returns the normalised value or throws a FieldError
 * naming the field, so a bad row is reported as `line, field: reason`. Numbers stay exact
 * decimal text throughout (core/money.ts); spreadsheet artefacts (thousands separators, `$`,
 * scientific notation, `N/A`) are undone here.
 */
import { createHash } from 'node:crypto';
import Big from 'big.js';
import { normalizeDecimal } from '../core/money.js';
import { fail } from './csv.js';
import { Occurrences } from './occurrences.js';

const GROUPED = /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/;

/** A non-negative decimal; `1,553,054,158` and `9.39445E-05` are read exactly. */
export function amountOf(text: string | undefined, field: string): string {
  const raw = (text ?? '').trim();
  if (raw === '') fail(field, 'is empty');
  const value = normalizeDecimal(GROUPED.test(raw) ? raw.replace(/,/g, '') : raw);
  if (value === null) fail(field, `not a number: '${raw}'`);
  if (value.startsWith('-')) fail(field, `must not be negative: '${raw}'`);
  return value;
}

/** Like amountOf, but an empty cell is null. */
export function optionalAmount(text: string | undefined, field: string): string | null {
  return (text ?? '').trim() === '' ? null : amountOf(text, field);
}

/** A fiat value as explorers format it (`$1,021.98`), or null when empty or `N/A`. */
export function fiatOf(text: string | undefined, field: string): string | null {
  const raw = (text ?? '').trim();
  if (raw === '' || /^n\/?a$/i.test(raw)) return null;
  return amountOf(raw.replace(/^\$/, ''), field);
}

/** amount × price, exact (big.js); the engine rounds it half-to-even to cents. Null price → null. */
export function valueAt(amount: string, price: string | null): string | null {
  return price === null ? null : new Big(amount).times(price).toFixed();
}

/** Unix seconds from an integer cell (`UnixTimestamp`). */
export function unixSecondsOf(text: string | undefined, field: string): number {
  const raw = (text ?? '').trim();
  if (!/^\d{1,12}$/.test(raw)) fail(field, `not a Unix timestamp: '${raw}'`);
  return Number(raw);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i;
const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** Unix seconds of y-m-d h:m:s UTC, or null when any part is out of range (no rollover). */
function utcSeconds(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  if (h > 23 || mi > 59 || s > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / 1000;
}

/** The digits of `s` from `from` to `to` as a number, or -1 when one is no digit. */
function digitsAt(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * dateTimeOf of the form most exchange files write, `YYYY-MM-DD HH:MM:SS` or with `T` (no zone:
 * UTC), read without the regular expressions: one per row (bench/RESULTS.md "Session 14").
 * Undefined for any other text, which the general path reads.
 */
function plainDateTime(raw: string): number | null | undefined {
  if (raw.length !== 19) return undefined;
  const c = raw.charCodeAt(10);
  if (raw.charCodeAt(4) !== 45 || raw.charCodeAt(7) !== 45 || (c !== 32 && c !== 84 && c !== 116) || raw.charCodeAt(13) !== 58 || raw.charCodeAt(16) !== 58) {
    return undefined;
  }
  const y = digitsAt(raw, 0, 4);
  const mo = digitsAt(raw, 5, 7);
  const d = digitsAt(raw, 8, 10);
  const h = digitsAt(raw, 11, 13);
  const mi = digitsAt(raw, 14, 16);
  const s = digitsAt(raw, 17, 19);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || s < 0) return undefined;
  return utcSeconds(y, mo, d, h, mi, s);
}

/**
 * A UTC date-time: ISO 8601 (`2024-04-09T23:18:08Z`, an offset is applied), `YYYY-MM-DD HH:MM[:SS][ UTC]`,
 * a bare `YYYY-MM-DD`, and with `slashes` Excel's month-first `M/D/YYYY H:MM` and `M/D/YY H:MM`.
 */
export function dateTimeOf(text: string | undefined, field: string, opts: { slashes?: boolean } = {}): number {
  const raw = (text ?? '').trim();
  let seconds = plainDateTime(raw);
  if (seconds !== undefined) {
    if (seconds === null) fail(field, `not a date-time: '${raw}'`);
    return seconds;
  }
  seconds = null;
  const iso = ISO.exec(raw);
  const slashed = opts.slashes ? SLASHED.exec(raw) : null;
  if (iso) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', zone = 'Z'] = iso;
    seconds = utcSeconds(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
    const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
    if (seconds !== null && offset) seconds -= (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 3600 + Number(offset[3]) * 60);
  } else if (slashed) {
    const [, mo, d, y, h = '0', mi = '0', s = '0'] = slashed;
    const year = y!.length === 2 ? 2000 + Number(y) : Number(y);
    seconds = utcSeconds(year, Number(mo), Number(d), Number(h), Number(mi), Number(s));
  }
  if (seconds === null) fail(field, `not a date-time: '${raw}'`);
  return seconds;
}

const ADDRESS = /^0x[0-9a-f]{40}$/i;

/** A lower-case 0x address, or '' for an empty cell (contract creations have no `To`). */
export function addressOf(text: string | undefined, field: string): string {
  const raw = (text ?? '').trim();
  if (raw === '') return '';
  if (!ADDRESS.test(raw)) fail(field, `not an address: '${raw}'`);
  return raw.toLowerCase();
}

export function isAddress(text: string): boolean {
  return ADDRESS.test(text);
}

/**
 * A stable stand-in hash for sources without one (rotki, Koinly rows without TxHash): the same
 * row content always gives the same hash, so re-imports stay idempotent (docs/import.md).
 */
export function syntheticHash(source: string, cells: string[]): string {
  return `${source}:${createHash('sha256')
    .update(cells.map((c) => c.trim()).join('\u001f'))
    .digest('hex')
    .slice(0, 40)}`;
}

/**
 * syntheticHash for rows that may repeat exactly (two equal transfers in one block): each row's
 * hash also covers how many identical rows came before it in the file, so both import, and a
 * second import of the same file gives the same hashes again.
 */
export function syntheticHashes(source: string): (cells: string[]) => string {
  // Counted by fingerprint: a file of millions of rows keeps no copy of each row (importers/occurrences.ts).
  const seen = new Occurrences();
  return (cells) => {
    const n = seen.next(cells.map((c) => c.trim()).join('\u001f'));
    return syntheticHash(source, [...cells, String(n)]);
  };
}

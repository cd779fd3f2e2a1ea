/**
 * Transaction filters: the query string of `GET /api/v1/transactions` (and the `filters` object
 * of an export) parsed into one typed filter, with the API's error codes for bad values (docs/server.md "Filters, dates and amounts").
 */
import { TxaError } from './errors.js';
import { MAX_AMOUNT_DIGITS, amountKey, integerDigits, normalizeDecimal } from './money.js';
import { DAY_SECONDS, requireDay } from './dates.js';
import { parsePageParams } from './pagination.js';
import { CHAINS, DIRECTIONS, SORTS, type Chain, type Direction, type QueryParams, type Sort } from './types.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export interface TxFilter {
  walletIds?: string[];
  chain?: Chain;
  token?: string;
  direction?: Direction;
  tagIds?: string[];
  /** Inclusive lower bound, Unix seconds (start of the start day). */
  startTs?: number;
  /** Exclusive upper bound, Unix seconds (start of the day after the end day). */
  endTs?: number;
  minAmountKey?: string;
  maxAmountKey?: string;
  hasTags?: boolean;
  hasNotes?: boolean;
  /** Legs of own transfers (true) or the other rows (false). */
  internal?: boolean;
  /** Spam rows: left out (the default), included, or alone (internal: the spam part of a summary). */
  spam?: 'exclude' | 'include' | 'only';
}

export interface TxQuery {
  filter: TxFilter;
  sort: Sort;
  page: number;
  limit: number;
}

type ParamCode = 'INVALID_PARAMETERS' | 'INVALID_FIELD';

function invalid(code: ParamCode, field: string, message: string): TxaError {
  return new TxaError(code, message, { field });
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], field: string, code: ParamCode): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw invalid(code, field, `${field} must be one of ${allowed.join(', ')}, got '${value}'`);
}

export function parseBooleanParam(value: string, field: string, code: ParamCode = 'INVALID_PARAMETERS'): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalid(code, field, `${field} must be true or false, got '${value}'`);
}

/**
 * A non-negative token amount (`min_amount`, `max_amount`) → its sortable key. A bound over
 * 78 integer digits is refused rather than clamped: no amount can be that large, so it is a
 * mistake (docs/storage.md).
 */
export function parseAmountBound(value: string, field: string, code: ParamCode): string {
  const canonical = normalizeDecimal(value);
  if (canonical === null || canonical.startsWith('-') || integerDigits(canonical) > MAX_AMOUNT_DIGITS) {
    throw invalid(code, field, `${field} must be a non-negative number in token units of at most ${MAX_AMOUNT_DIGITS} integer digits, got '${value}'`);
  }
  return amountKey(canonical);
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface FilterInput {
  wallet_ids?: string[];
  chain?: string;
  token?: string;
  direction?: string;
  tag_ids?: string[];
  start_date?: string;
  end_date?: string;
  min_amount?: string;
  max_amount?: string;
  has_tags?: boolean;
  has_notes?: boolean;
  internal?: boolean;
  include_spam?: boolean;
}

/**
 * Builds the typed filter. `fieldPrefix` is '' for query parameters and 'filters.' for an
 * export body; `strictRange` is the export rule (end must be after start) versus the list rule
 * (end must not be before start).
 */
export function buildFilter(input: FilterInput, code: ParamCode, fieldPrefix = '', strictRange = false): TxFilter {
  const f: TxFilter = {};
  const field = (name: string) => fieldPrefix + name;
  if (input.wallet_ids?.length) f.walletIds = input.wallet_ids;
  if (input.chain !== undefined) f.chain = oneOf(input.chain, CHAINS, field('chain'), code);
  if (input.token !== undefined && input.token !== '') f.token = input.token;
  if (input.direction !== undefined) f.direction = oneOf(input.direction, DIRECTIONS, field('direction'), code);
  if (input.tag_ids?.length) f.tagIds = input.tag_ids;
  if (input.start_date !== undefined) f.startTs = requireDay(input.start_date, field('start_date'), code);
  if (input.end_date !== undefined) f.endTs = requireDay(input.end_date, field('end_date'), code) + DAY_SECONDS;
  if (f.startTs !== undefined && f.endTs !== undefined) {
    const endDay = f.endTs - DAY_SECONDS;
    if (strictRange ? endDay <= f.startTs : endDay < f.startTs) {
      throw new TxaError('INVALID_DATE_RANGE', strictRange ? 'end_date must be after start_date' : 'end_date must not be before start_date', {
        field: field('end_date'),
      });
    }
  }
  if (input.min_amount !== undefined) f.minAmountKey = parseAmountBound(input.min_amount, field('min_amount'), code);
  if (input.max_amount !== undefined) f.maxAmountKey = parseAmountBound(input.max_amount, field('max_amount'), code);
  if (input.has_tags !== undefined) f.hasTags = input.has_tags;
  if (input.has_notes !== undefined) f.hasNotes = input.has_notes;
  if (input.internal !== undefined) f.internal = input.internal;
  if (input.include_spam) f.spam = 'include';
  return f;
}

/** Parses the query string of `GET /api/v1/transactions` (docs/server.md "Filters, dates and amounts"). */
export function parseTxQuery(params: QueryParams): TxQuery {
  const p = (name: string) => {
    const v = params[name];
    return v === undefined || v === '' ? undefined : v;
  };
  const code = 'INVALID_PARAMETERS';
  const walletId = p('wallet_id');
  const tagIds = p('tag_ids');
  const hasTags = p('has_tags');
  const hasNotes = p('has_notes');
  const internal = p('internal');
  const includeSpam = p('include_spam');
  const filter = buildFilter(
    {
      wallet_ids: walletId ? [walletId] : undefined,
      chain: p('chain'),
      token: p('token'),
      direction: p('direction'),
      tag_ids: tagIds ? splitList(tagIds) : undefined,
      start_date: p('start_date'),
      end_date: p('end_date'),
      min_amount: p('min_amount'),
      max_amount: p('max_amount'),
      has_tags: hasTags === undefined ? undefined : parseBooleanParam(hasTags, 'has_tags'),
      has_notes: hasNotes === undefined ? undefined : parseBooleanParam(hasNotes, 'has_notes'),
      internal: internal === undefined ? undefined : parseBooleanParam(internal, 'internal'),
      include_spam: includeSpam === undefined ? undefined : parseBooleanParam(includeSpam, 'include_spam'),
    },
    code,
  );
  const sortValue = p('sort');
  const { page, limit } = parsePageParams(params, DEFAULT_LIMIT, MAX_LIMIT);
  return {
    filter,
    sort: sortValue === undefined ? 'timestamp_desc' : oneOf(sortValue, SORTS, 'sort', code),
    page,
    limit,
  };
}

/** Whether the daily rollups can answer this filter's summary (no per-row predicates). */
export function rollupCanAnswer(f: TxFilter): boolean {
  return (
    f.tagIds === undefined &&
    f.hasTags === undefined &&
    f.hasNotes === undefined &&
    f.internal === undefined &&
    f.minAmountKey === undefined &&
    f.maxAmountKey === undefined
  );
}

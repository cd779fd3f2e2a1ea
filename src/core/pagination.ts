/** `page`/`limit` query parameters and the pagination object of docs/reference/api.md "Pagination", for every list. */
import { TxaError } from './errors.js';
import type { Pagination, QueryParams } from './types.js';

function parsePositiveInt(value: string, field: string, max?: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || (max !== undefined && n > max)) {
    const range = max === undefined ? 'a whole number of at least 1' : `a whole number from 1 to ${max}`;
    throw new TxaError('INVALID_PARAMETERS', `${field} must be ${range}, got '${value}'`, { field });
  }
  return n;
}

export interface PageRequest {
  page: number;
  limit: number;
  /** Rows to skip: (page − 1) × limit. */
  offset: number;
}

/** Parses `page` (default 1) and `limit` (default and maximum per list); bad values are INVALID_PARAMETERS. */
export function parsePageParams(params: QueryParams, defaultLimit: number, maxLimit: number): PageRequest {
  const page = params.page ? parsePositiveInt(params.page, 'page') : 1;
  const limit = params.limit ? parsePositiveInt(params.limit, 'limit', maxLimit) : defaultLimit;
  return { page, limit, offset: (page - 1) * limit };
}

export function paginationOf(total: number, { page, limit }: { page: number; limit: number }): Pagination {
  return { total, page, pages: Math.ceil(total / limit), limit };
}

/** Page size of the whole-list endpoints when `page` or `limit` is given. */
export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 100;

/**
 * A list that is short by nature (tags, webhooks, keys, rates, workspaces) comes whole, as its
 * API shape says; with `page` or `limit` it comes as that page, with its pagination object.
 */
export function pageOfList<T>(items: T[], params: QueryParams): { data: T[]; pagination?: Pagination } {
  if (!params.page && !params.limit) return { data: items };
  const req = parsePageParams(params, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX);
  return { data: items.slice(req.offset, req.offset + req.limit), pagination: paginationOf(items.length, req) };
}

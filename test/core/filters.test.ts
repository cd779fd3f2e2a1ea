import { describe, expect, it } from 'vitest';
import { parseTxQuery } from '../../src/core/filters.js';
import { txaErrorOf } from '../helpers/errors.js';

describe('parseTxQuery', () => {
  it('applies the defaults', () => {
    expect(parseTxQuery({})).toEqual({ filter: {}, sort: 'timestamp_desc', page: 1, limit: 50 });
  });

  it.each([
    [{ start_date: '2024-1-1' }, 'INVALID_PARAMETERS', 'start_date'],
    [{ start_date: '2024/01/01' }, 'INVALID_PARAMETERS', 'start_date'],
    [{ end_date: '2024-02-30' }, 'INVALID_PARAMETERS', 'end_date'],
    [{ limit: '0' }, 'INVALID_PARAMETERS', 'limit'],
    [{ limit: '201' }, 'INVALID_PARAMETERS', 'limit'],
    [{ limit: 'abc' }, 'INVALID_PARAMETERS', 'limit'],
    [{ page: '0' }, 'INVALID_PARAMETERS', 'page'],
    [{ chain: 'solana' }, 'INVALID_PARAMETERS', 'chain'],
    [{ direction: 'sideways' }, 'INVALID_PARAMETERS', 'direction'],
    [{ sort: 'random' }, 'INVALID_PARAMETERS', 'sort'],
    [{ min_amount: 'ten' }, 'INVALID_PARAMETERS', 'min_amount'],
    [{ max_amount: '-1' }, 'INVALID_PARAMETERS', 'max_amount'],
    [{ has_tags: 'yes' }, 'INVALID_PARAMETERS', 'has_tags'],
    [{ start_date: '2024-03-02', end_date: '2024-03-01' }, 'INVALID_DATE_RANGE', 'end_date'],
  ])('%o → %s (%s)', (params, code, field) => {
    const err = txaErrorOf(() => parseTxQuery(params));
    expect(err.code).toBe(code);
    expect(err.field).toBe(field);
  });

  it('names the date format in the message', () => {
    expect(txaErrorOf(() => parseTxQuery({ start_date: '2024-1-1' })).message).toMatch(/YYYY-MM-DD/);
  });

  it('allows a one-day range (both days inclusive)', () => {
    const q = parseTxQuery({ start_date: '2024-03-01', end_date: '2024-03-01' });
    expect(q.filter.endTs! - q.filter.startTs!).toBe(86_400);
  });

  it('splits tag ids and parses booleans', () => {
    const q = parseTxQuery({ tag_ids: 'a, b,,c', has_tags: 'false', has_notes: 'true' });
    expect(q.filter).toEqual({ tagIds: ['a', 'b', 'c'], hasTags: false, hasNotes: true });
  });
});

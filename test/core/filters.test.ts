import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseTxQuery } from '../../src/core/filters.js';
import { amountKey, normalizeDecimal } from '../../src/core/money.js';
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
    [{ max_amount: '1e99' }, 'INVALID_PARAMETERS', 'max_amount'],
    [{ min_amount: '1e99' }, 'INVALID_PARAMETERS', 'min_amount'],
    [{ min_amount: '1e78' }, 'INVALID_PARAMETERS', 'min_amount'],
    [{ min_amount: '1e999' }, 'INVALID_PARAMETERS', 'min_amount'],
    [{ max_amount: '1'.repeat(200) + '.5' }, 'INVALID_PARAMETERS', 'max_amount'],
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

describe('amount bounds', () => {
  /** A decimal as (unscaled BigInt, scale): the model the keys are checked against. */
  const decimalArb = fc
    .tuple(fc.integer({ min: 0, max: 78 }), fc.integer({ min: 0, max: 30 }))
    .chain(([intDigits, scale]) =>
      fc.tuple(
        intDigits === 0
          ? fc.constant('0')
          : fc
              .tuple(fc.integer({ min: 1, max: 9 }), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: intDigits - 1, maxLength: intDigits - 1 }))
              .map(([d, rest]) => `${d}${rest}`),
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: scale, maxLength: scale }),
      ),
    )
    .map(([int, frac]) => ({ text: frac ? `${int}.${frac}` : int, units: BigInt(int + frac), scale: frac.length }));

  const compare = (a: { units: bigint; scale: number }, b: { units: bigint; scale: number }) => {
    const scale = Math.max(a.scale, b.scale);
    const x = a.units * 10n ** BigInt(scale - a.scale);
    const y = b.units * 10n ** BigInt(scale - b.scale);
    return x < y ? -1 : x > y ? 1 : 0;
  };

  it('min_amount and max_amount include exactly the amounts a BigInt model does, for 0 to 78 integer digits', () => {
    fc.assert(
      fc.property(decimalArb, decimalArb, (amount, bound) => {
        // `1e…` notation of the bound, as a JSON number or a spreadsheet would write it.
        const written = `${bound.units}e-${bound.scale}`;
        const { minAmountKey, maxAmountKey } = parseTxQuery({ min_amount: written, max_amount: bound.text }).filter;
        const key = amountKey(normalizeDecimal(amount.text)!);
        expect(key >= minAmountKey!).toBe(compare(amount, bound) >= 0);
        expect(key <= maxAmountKey!).toBe(compare(amount, bound) <= 0);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts 78 integer digits and refuses 79', () => {
    expect(parseTxQuery({ max_amount: '9'.repeat(78) + '.99' }).filter.maxAmountKey).toBe(`78${'9'.repeat(78)}99`);
    expect(txaErrorOf(() => parseTxQuery({ max_amount: '1' + '0'.repeat(78) })).message).toMatch(/at most 78 integer digits/);
  });
});

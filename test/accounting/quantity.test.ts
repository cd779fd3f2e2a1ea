/**
 * quantityOf reads the ledger's plain amounts the short way (no normalizing): for any text, plain
 * or not, it must give what normalizing then scaling gives, and fail where that fails.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { quantityOf } from '../../src/accounting/quantity.js';
import { normalizeDecimal, toBaseUnits } from '../../src/core/money.js';

/** The long way: canonical form, sign dropped, scaled to the token's decimals. */
function reference(amount: string, decimals: number): { units: bigint; scale: number } {
  const canonical = normalizeDecimal(amount);
  if (canonical === null) throw new RangeError('not an amount');
  return { units: toBaseUnits(canonical.replace(/^-/, ''), decimals), scale: decimals };
}

const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: max });
const amountArb = fc.oneof(
  fc
    .tuple(fc.constantFrom('', '-', '+', ' '), digits(30), fc.option(digits(24)), fc.constantFrom('', 'e-3', 'E2', ' '))
    .map(([sign, int, frac, tail]) => `${sign}${int}${frac === null ? '' : `.${frac}`}${tail}`),
  fc.string({ maxLength: 12 }),
);

describe('quantityOf', () => {
  test('equals normalizing then scaling, for plain, padded, signed, scientific and junk amounts', () => {
    fc.assert(
      fc.property(amountArb, fc.integer({ min: 0, max: 24 }), (amount, decimals) => {
        let expected: { units: bigint; scale: number } | 'fails';
        try {
          expected = reference(amount, decimals);
        } catch {
          expected = 'fails';
        }
        if (expected === 'fails') expect(() => quantityOf(amount, decimals)).toThrow(RangeError);
        else expect(quantityOf(amount, decimals)).toEqual(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  test('hand-picked edges', () => {
    expect(quantityOf('007.50', 2)).toEqual({ units: 750n, scale: 2 });
    expect(quantityOf('-0', 18)).toEqual({ units: 0n, scale: 18 });
    expect(quantityOf('1.000000', 2)).toEqual({ units: 100n, scale: 2 });
    expect(quantityOf('123456789012345678901234567890.123456789012345678', 18)).toEqual({
      units: 123456789012345678901234567890123456789012345678n,
      scale: 18,
    });
    expect(() => quantityOf('0.001', 2)).toThrow(RangeError);
  });
});

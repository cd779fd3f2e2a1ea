import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDecimals,
  amountKey,
  centsToNumber,
  centsToString,
  compareDecimal,
  decimalToCents,
  fromBaseUnits,
  normalizeDecimal,
  toBaseUnits,
} from '../../src/core/money.js';

describe('normalizeDecimal', () => {
  it.each([
    ['0', '0'],
    ['000.000', '0'],
    ['-0.0', '0'],
    ['12.50', '12.5'],
    ['+7', '7'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['9.39445E-05', '0.0000939445'],
    ['2.0837120886e-06', '0.0000020837120886'],
    ['7E-16', '0.0000000000000007'],
    ['1e3', '1000'],
    ['1.5E+2', '150'],
    ['34.495975469528555004', '34.495975469528555004'],
    ['-3.10', '-3.1'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeDecimal(input)).toBe(expected);
  });

  it.each(['', 'abc', '1,000', '1.2.3', 'e5', '--1', '1e', 'NaN', 'Infinity', '1e999', '.', '-', '+', '-.', ' ', '1 2', '١٢'])('rejects %s', (input) => {
    expect(normalizeDecimal(input)).toBeNull();
  });

  // Plain decimals are read by a scan (money.ts plainDecimal): held here to the regular
  // expression that defines the form, on random texts of its characters.
  it('reads plain decimals as their definition does', () => {
    const byDefinition = (text: string): string | null => {
      const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
      if (!m) return 'not plain';
      const [, sign = '', int = '', frac = ''] = m;
      if (int === '' && frac === '') return null;
      const body = (int.replace(/^0+/, '') || '0') + (frac.replace(/0+$/, '') ? `.${frac.replace(/0+$/, '')}` : '');
      return body === '0' || sign !== '-' ? body : `-${body}`;
    };
    const text = fc.array(fc.constantFrom('0', '0', '1', '9', '.', '-', '+', ' ', 'e', 'x'), { maxLength: 12 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const expected = byDefinition(t);
        if (expected !== 'not plain') expect(normalizeDecimal(t)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('base units', () => {
  it('round-trips 78-digit amounts exactly', () => {
    const max = '115792089237316195423570985008687907853269984665640564039457.584007913129639935';
    expect(fromBaseUnits(toBaseUnits(max, 18), 18)).toBe(max);
  });

  it.each([
    [0n, 0, '0'],
    [0n, 18, '0'],
    [5n, 0, '5'],
    [-5n, 0, '-5'],
    [10n, 1, '1'],
    [-120n, 2, '-1.2'],
    [1n, 18, '0.000000000000000001'],
    [-1n, 18, '-0.000000000000000001'],
    [123000n, 3, '123'],
    [1234500n, 3, '1234.5'],
  ])('fromBaseUnits(%s, %s) is %s', (units, decimals, text) => {
    expect(fromBaseUnits(units, decimals)).toBe(text);
  });

  it('fromBaseUnits reads back what toBaseUnits made of any canonical decimal', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 0, max: 30 }), (units, decimals) => {
        const text = fromBaseUnits(units, decimals);
        expect(normalizeDecimal(text)).toBe(text);
        expect(toBaseUnits(text, decimals)).toBe(units);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses more decimals than the token has', () => {
    expect(() => toBaseUnits('1.0000001', 6)).toThrow(RangeError);
  });

  it('adds exactly where floats do not', () => {
    expect(addDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(addDecimals(['12345.123456789012345678', '0.000000000000000001'])).toBe('12345.123456789012345679');
  });
});

describe('amountKey', () => {
  const decimal = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 24 })).map(([units, decimals]) => fromBaseUnits(units, decimals));

  it('orders byte-wise exactly as the numbers order', () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const byKey = amountKey(a) < amountKey(b) ? -1 : amountKey(a) > amountKey(b) ? 1 : 0;
        expect(byKey).toBe(compareDecimal(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('tells apart values a double cannot', () => {
    expect(amountKey('12345.123456789012345678') < amountKey('12345.123456789012345679')).toBe(true);
  });
});

describe('cents', () => {
  it.each([
    ['1132.01998337566', 113202],
    ['0.005', 0],
    ['0.015', 2],
    ['0.025', 2],
    ['0.0251', 3],
    ['-0.015', -2],
    ['2.675', 268],
  ])('%s rounds half-even to %i cents', (input, cents) => {
    expect(decimalToCents(input)).toBe(cents);
  });

  it('formats cents', () => {
    expect(centsToString(-123450)).toBe('-1234.50');
    expect(centsToString(5)).toBe('0.05');
  });
});

describe('centsToNumber', () => {
  it('is the number of the cents as decimal text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1_000_000, max: 1_000_000 })), (cents) => {
        expect(centsToNumber(cents)).toBe(Number(centsToString(cents)));
      }),
      { numRuns: 5000 },
    );
    expect(Object.is(centsToNumber(-0), 0)).toBe(true);
    expect(centsToNumber(-5)).toBe(-0.05);
  });
});

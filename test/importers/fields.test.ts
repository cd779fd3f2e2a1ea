/** Field parsers of the importers: spreadsheet artefacts read exactly, bad values named. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { amountOf, dateTimeOf, fiatOf, valueAt } from '../../src/importers/fields.js';
import { FieldError } from '../../src/importers/csv.js';
import { typeOfMethod, tokenTransferType, ZERO_ADDRESS } from '../../src/importers/tokens.js';

const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof FieldError) return `${err.field}: ${err.message}`;
    throw err;
  }
  return 'no error';
};

describe('amounts and fiat', () => {
  it.each([
    ['1,553,054,158', '1553054158'],
    ['3,067.671', '3067.671'],
    ['9.39445E-05', '0.0000939445'],
    ['7E-16', '0.0000000000000007'],
    ['0.0', '0'],
    ['10.11875287000', '10.11875287'],
  ])('%s → %s', (text, expected) => expect(amountOf(text, 'x')).toBe(expected));

  it('rejects what is not a non-negative number, naming the field', () => {
    expect(reason(() => amountOf('1,00', 'TokenValue'))).toBe("TokenValue: not a number: '1,00'");
    expect(reason(() => amountOf('-1', 'Amount'))).toBe("Amount: must not be negative: '-1'");
    expect(reason(() => amountOf(' ', 'Amount'))).toBe('Amount: is empty');
  });

  it('reads $-formatted values and N/A', () => {
    expect(fiatOf('$1,021.98', 'USD')).toBe('1021.98');
    expect(fiatOf('N/A', 'USD')).toBeNull();
    expect(fiatOf('', 'USD')).toBeNull();
  });

  it('multiplies exactly', () => {
    expect(valueAt('34.495975469528555004', '90.43')).toBe('3119.47106170946722901172');
    expect(valueAt('1', null)).toBeNull();
  });
});

describe('dates', () => {
  it.each([
    ['2024-04-09 23:18:08', Date.UTC(2024, 3, 9, 23, 18, 8)],
    ['2021-10-17 20:40:29 UTC', Date.UTC(2021, 9, 17, 20, 40, 29)],
    ['2024-04-09T23:18:08Z', Date.UTC(2024, 3, 9, 23, 18, 8)],
    ['2024-04-10T01:18:08+02:00', Date.UTC(2024, 3, 9, 23, 18, 8)],
    ['2024-03-01', Date.UTC(2024, 2, 1)],
    ['4/23/2024 0:10', Date.UTC(2024, 3, 23, 0, 10)],
    ['11/16/21 4:07', Date.UTC(2021, 10, 16, 4, 7)],
  ])('%s', (text, ms) => expect(dateTimeOf(text, 'd', { slashes: true })).toBe(ms / 1000));

  // `YYYY-MM-DD HH:MM:SS` is read by a scan (fields.ts plainDateTime): the same answers as the ISO form.
  it.each([
    ['2024-04-09T23:18:08', Date.UTC(2024, 3, 9, 23, 18, 8)],
    ['2024-04-09t23:18:08', Date.UTC(2024, 3, 9, 23, 18, 8)],
    [' 2024-02-29 00:00:59 ', Date.UTC(2024, 1, 29, 0, 0, 59)],
    ['1999-12-31 23:59:59', Date.UTC(1999, 11, 31, 23, 59, 59)],
  ])('%s (the plain form)', (text, ms) => expect(dateTimeOf(text, 'd')).toBe(ms / 1000));

  it.each([
    '2023-02-29 00:00:00',
    '2024-04-09 24:00:00',
    '2024-04-09 23:60:00',
    '2024-04-09 23:18:60',
    '2024-13-01 00:00:00',
    '2024-00-10 00:00:00',
    '2024-04-09x23:18:08',
    '2024-04-09 2a:18:08',
    '2024-04-09 -1:18:08',
  ])('refuses %s', (text) => expect(reason(() => dateTimeOf(text, 'time'))).toBe(`time: not a date-time: '${text}'`));

  it('reads every time of the plain form as the ISO form with Z', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1) / 1000, max: Date.UTC(2100, 0, 1) / 1000 }), (seconds) => {
        const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
        expect(dateTimeOf(iso.replace('T', ' '), 'd')).toBe(seconds);
        expect(dateTimeOf(`${iso}Z`, 'd')).toBe(seconds);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses impossible dates and slashed dates where they are ambiguous', () => {
    expect(reason(() => dateTimeOf('2024-02-30', 'date'))).toBe("date: not a date-time: '2024-02-30'");
    expect(reason(() => dateTimeOf('13/1/2024 0:00', 'DateTime', { slashes: true }))).toContain('not a date-time');
    expect(reason(() => dateTimeOf('03/01/2024', 'date'))).toContain('not a date-time');
  });
});

describe('types from methods', () => {
  it.each([
    ['Swap Exact Tokens For Tokens', 'swap'],
    ['Eth To Token Swap Input', 'swap'],
    ['Approve', 'approval'],
    ['Call Deposit V3', 'bridge'],
    ['Mint', 'mint'],
    ['0x3070b98d', undefined],
    ['Transfer', undefined],
  ])('%s → %s', (method, type) => expect(typeOfMethod(method)).toBe(type));

  it('zero address transfers are mints and burns', () => {
    expect(tokenTransferType(ZERO_ADDRESS, '0xa', 'Swapin')).toBe('mint');
    expect(tokenTransferType('0xa', ZERO_ADDRESS, 'Swapout')).toBe('burn');
    expect(tokenTransferType('0xa', '0xb', 'Add Liquidity')).toBe('transfer');
  });
});

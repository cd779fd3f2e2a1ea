import { describe, expect, it } from 'vitest';
import { valueCents } from '../../src/prices/value.js';

describe('valueCents: amount × price ÷ rate in exact cents', () => {
  it('rounds half to even, as the ledger rounds', () => {
    expect(valueCents('0.5', '3412.37')).toBe(170618); // 1706.185 → 1706.18
    expect(valueCents('1.5', '3412.37')).toBe(511856); // 5118.555 → 5118.56
    expect(valueCents('0.002', '3412.37')).toBe(682); // 6.82474
  });

  it('keeps every digit of 18-decimal amounts and long prices (no binary float)', () => {
    expect(valueCents('0.000000000000000001', '1000000000000000000')).toBe(100);
    expect(valueCents('123456789.123456789123456789', '0.000000012345')).toBe(152);
    expect(valueCents('0.1', '0.2')).toBe(2);
  });

  it('converts with the rate: 1 base = rate units of the price currency', () => {
    // 0.5 × 3412.37 USD ÷ 1.08 USD per EUR = 1579.8009… EUR
    expect(valueCents('0.5', '3412.37', '1.08')).toBe(157980);
    // exactly half a cent after the division: 0.25 ÷ 0.5 × 0.01 … 1.25 cents → 1 (even)
    expect(valueCents('0.0125', '1', '1')).toBe(1);
    expect(valueCents('0.0375', '1', '1')).toBe(4);
  });

  it("is null for a value a ledger row cannot carry (a spam token's made-up price)", () => {
    expect(valueCents('1000000000', '100000')).toBeNull();
    expect(valueCents('0', '1e30')).toBe(0);
  });
});

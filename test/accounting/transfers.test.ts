/** The matching rules of src/accounting/transfers.ts, on hand-made rows. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromBaseUnits } from '../../src/core/money.js';
import {
  bridgeCandidates,
  exchangeHashPair,
  kindOf,
  pairProblem,
  sameAsset,
  sameTimePairs,
  withinExchangeTolerance,
  withinTolerance,
  type Leg,
} from '../../src/accounting/transfers.js';

let n = 0;
function leg(over: Partial<Leg>): Leg {
  n++;
  return {
    id: `tx_${String(n).padStart(3, '0')}`,
    wallet_id: 'w1',
    chain: 'ethereum',
    tx_hash: '0x1',
    token_symbol: 'ETH',
    token_address: null,
    amount: '1',
    direction: 'outflow',
    type: 'transfer',
    ts: 1000,
    from_address: '0xa',
    to_address: '0xb',
    transfer: null,
    ...over,
  };
}
const never = () => false;

describe('own transfer rules', () => {
  it('tolerates a bridge fee of at most 1 %, exactly, and never more in than out', () => {
    expect(withinTolerance('100', '99')).toBe(true);
    expect(withinTolerance('100', '98.999999999999999999')).toBe(false);
    expect(withinTolerance('0.000000000000000003', '0.000000000000000003')).toBe(true);
    expect(withinTolerance('100', '100.000001')).toBe(false);
    expect(withinTolerance('1', '0.99')).toBe(true); // one digit fewer, within 1 %
    expect(withinTolerance('0.0101', '0.01')).toBe(true);
    expect(withinTolerance('5', '0')).toBe(false);
  });

  it('tolerance agrees with r ≤ s ∧ 100 r ≥ 99 s on exact units, across magnitudes', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.integer({ min: 0, max: 18 }))
      .map(([units, scale]) => ({ units, scale, text: fromBaseUnits(units, scale) }));
    // Received amounts near the sent one, so the BigInt side is exercised too.
    const pair = fc.oneof(
      fc.tuple(decimal, decimal),
      fc
        .tuple(decimal, fc.integer({ min: 980, max: 1001 }))
        .map(
          ([s, permille]) =>
            [s, { ...s, units: (s.units * BigInt(permille)) / 1000n, text: fromBaseUnits((s.units * BigInt(permille)) / 1000n, s.scale) }] as const,
        ),
    );
    fc.assert(
      fc.property(pair, ([s, r]) => {
        const scale = Math.max(s.scale, r.scale);
        const su = s.units * 10n ** BigInt(scale - s.scale);
        const ru = r.units * 10n ** BigInt(scale - r.scale);
        expect(withinTolerance(s.text, r.text)).toBe(ru <= su && ru * 100n >= su * 99n);
      }),
      { numRuns: 3000 },
    );
  });

  it('one asset: the same token on a chain, the same symbol across chains', () => {
    const usdcEth = leg({ token_symbol: 'USDC', token_address: '0xa0b8' });
    expect(sameAsset(usdcEth, leg({ token_symbol: 'USDC', token_address: '0xfake' }))).toBe(false);
    expect(sameAsset(usdcEth, leg({ chain: 'polygon', token_symbol: 'usdc', token_address: '0x3c49' }))).toBe(true);
  });

  it('pairs rows of one timestamp by hash, token and amount, preferring the wallet the outflow names', () => {
    const out = leg({ wallet_id: 'w1', to_address: '0xc' });
    const toB = leg({ wallet_id: 'w2', direction: 'inflow' });
    const toC = leg({ wallet_id: 'w3', direction: 'inflow' });
    const wallets = new Map([
      ['w1', { id: 'w1', chain: 'ethereum', address: '0xa' }],
      ['w2', { id: 'w2', chain: 'ethereum', address: '0xb' }],
      ['w3', { id: 'w3', chain: 'ethereum', address: '0xc' }],
    ]);
    expect(sameTimePairs([out, toB, toC], wallets, never).map((p) => p.in.id)).toEqual([toC.id]);
    expect(sameTimePairs([out, leg({ wallet_id: 'w2', direction: 'inflow', amount: '0.99' })], wallets, never)).toEqual([]);
    expect(sameTimePairs([out, toB], wallets, (key) => key === `${out.id}\0${toB.id}`)).toEqual([]);
  });

  it('proposes each row once, the exact amount first, then the nearest in time, only across chains within the hour', () => {
    const early = leg({ ts: 0, amount: '10' });
    const exact = leg({ ts: 100, amount: '9.95' });
    const sameChain = leg({ ts: 200, amount: '9.95', direction: 'inflow' });
    const into = leg({ ts: 600, amount: '9.95', direction: 'inflow', chain: 'arbitrum', wallet_id: 'w2' });
    const late = leg({ ts: 4000, amount: '10', direction: 'inflow', chain: 'arbitrum', wallet_id: 'w2' });
    expect([...bridgeCandidates([early, exact, sameChain, into, late], never)].map((p) => [p.out.id, p.in.id])).toEqual([[exact.id, into.id]]);
  });

  it('explains why two rows cannot be one transfer', () => {
    const out = leg({});
    expect(pairProblem(out, leg({}))).toMatch(/both transactions are outflows/);
    expect(pairProblem(out, leg({ direction: 'inflow' }))).toMatch(/same wallet/);
    expect(pairProblem(out, leg({ direction: 'inflow', wallet_id: 'w2', token_symbol: 'DAI', token_address: '0xd' }))).toMatch(/different tokens/);
    expect(pairProblem(out, leg({ direction: 'inflow', wallet_id: 'w2', amount: '1.1' }))).toMatch(/more than the outflow/);
    expect(pairProblem(out, leg({ direction: 'inflow', wallet_id: 'w2', amount: '0.9' }))).toBeNull();
  });
});

describe('exchange transfers (docs/accounting.md "Exchange accounts")', () => {
  const X = 'exchange';

  it('are kind exchange when either leg is an exchange account’s', () => {
    expect(kindOf(leg({ chain: X }), leg({ chain: 'ethereum' }))).toBe('exchange');
    expect(kindOf(leg({ chain: 'base' }), leg({ chain: X }))).toBe('exchange');
    expect(kindOf(leg({ chain: X, wallet_id: 'a' }), leg({ chain: X, wallet_id: 'b' }))).toBe('exchange');
    expect(kindOf(leg({ chain: 'base' }), leg({ chain: 'ethereum' }))).toBe('bridge');
  });

  it('tolerate 1 % of the amount sent plus the network fee, exactly, and never more in than out', () => {
    // 1 − 1 % = 0.99; less a fee of 0.002: 0.988 is the least that may arrive.
    expect(withinExchangeTolerance('1', '0.988', '0.002')).toBe(true);
    expect(withinExchangeTolerance('1', '0.987999999999999999', '0.002')).toBe(false);
    expect(withinExchangeTolerance('1', '0.99', null)).toBe(true);
    expect(withinExchangeTolerance('1', '0.989999', null)).toBe(false);
    expect(withinExchangeTolerance('1', '1.000000000000000001', '0.5')).toBe(false);
  });

  it('the exchange tolerance answers as the exact sums do, near the bound and far from it (its float shortcut)', () => {
    // received·100 ≥ sent·99 − fee·100, on 18-decimal units; received drawn around the bound.
    const exact = (s: bigint, r: bigint, f: bigint) => r <= s && r * 100n >= s * 99n - f * 100n;
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 16n }),
        fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
        fc.integer({ min: 0, max: 3 }),
        (s, f, jitter, far) => {
          const bound = (s * 99n - f * 100n) / 100n;
          const r = far === 0 ? (s * BigInt(50 + Number(jitter % 50n))) / 100n : bound + jitter;
          if (r < 0n) return;
          expect(withinExchangeTolerance(fromBaseUnits(s, 18), fromBaseUnits(r, 18), fromBaseUnits(f, 18))).toBe(exact(s, r, f));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('are proposed within 24 hours after the outflow (not before it, not a second later), from another wallet', () => {
    const out = leg({ chain: X, wallet_id: 'cb', ts: 0, amount: '2', fee: '0.01' });
    const at = (ts: number, amount = '1.97') => leg({ chain: 'ethereum', wallet_id: 'w', direction: 'inflow', ts, amount });
    // 2 − 0.02 − 0.01 = 1.97: the least that may arrive.
    expect([...bridgeCandidates([out, at(86400)], never)].map((p) => [p.out.id, p.in.id])).toEqual([[out.id, expect.any(String)]]);
    expect([...bridgeCandidates([out, at(86401)], never)]).toEqual([]);
    expect([...bridgeCandidates([out, at(3600, '1.969')], never)]).toEqual([]);
    // An inflow before the withdrawal is no arrival of it.
    expect([...bridgeCandidates([at(0), { ...out, ts: 10 }], never)]).toEqual([]);
    // The same wallet's rows are never a transfer.
    expect([...bridgeCandidates([out, { ...at(60), wallet_id: 'cb', chain: X }], never)]).toEqual([]);
  });

  it('a deposit to an exchange is proposed over a day too, a bridge still within the hour', () => {
    const sent = leg({ chain: 'ethereum', wallet_id: 'w', ts: 0, amount: '5' });
    const credited = leg({ chain: X, wallet_id: 'kr', direction: 'inflow', ts: 20 * 3600, amount: '5' });
    expect([...bridgeCandidates([sent, credited], never)].map((p) => kindOf(p.out, p.in))).toEqual(['exchange']);
    const bridged = leg({ chain: 'base', wallet_id: 'b', direction: 'inflow', ts: 2 * 3600, amount: '5' });
    expect([...bridgeCandidates([sent, bridged], never)]).toEqual([]);
  });

  it('are matched by network hash: the other side of the hash, same asset, opposite direction, not rejected', () => {
    const hash = `0x${'ab'.repeat(32)}`;
    const withdrawal = leg({ chain: X, wallet_id: 'cb', tx_hash: hash, amount: '1' });
    const arrival = leg({ chain: 'ethereum', wallet_id: 'w', direction: 'inflow', tx_hash: hash.toUpperCase().replace('0X', '0x'), amount: '1', ts: 1300 });
    expect(exchangeHashPair(arrival, [withdrawal], never)).toEqual({ out: withdrawal, in: arrival });
    // Two chain rows of one hash are no exchange transfer (sameTimePairs matches those); a synthetic id is no network hash.
    expect(exchangeHashPair(arrival, [{ ...withdrawal, chain: 'ethereum' }], never)).toBeUndefined();
    expect(exchangeHashPair({ ...arrival, tx_hash: 'coinbase:abc' }, [{ ...withdrawal, tx_hash: 'coinbase:abc' }], never)).toBeUndefined();
    expect(exchangeHashPair(arrival, [{ ...withdrawal, token_symbol: 'USDC' }], never)).toBeUndefined();
    expect(exchangeHashPair(arrival, [withdrawal], () => true)).toBeUndefined();
  });
});

/** The spam rules a token transfer row alone decides (src/accounting/spam.ts, docs/sync.md "Spam"). */
import { describe, expect, it } from 'vitest';
import { tokenSpamReason, transferSpamReason, type TokenFacts } from '../../src/accounting/spam.js';

const OTHER = `0x${'fa'.repeat(20)}`;
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const token = (symbol: string, extra: Partial<TokenFacts> = {}): TokenFacts => ({ chain: 'ethereum', address: OTHER, symbol, name: '', ...extra });

describe('lookalike tokens', () => {
  it("flags a known token's symbol at another contract of the chain, in any case", () => {
    expect(tokenSpamReason(token('USDT'))).toBe('lookalike');
    expect(tokenSpamReason(token('usdc'))).toBe('lookalike');
  });

  it('never flags the known token itself, nor the bridged stablecoins sharing its symbol', () => {
    expect(tokenSpamReason(token('USDT', { address: USDT, name: 'Tether USD' }))).toBeUndefined();
    expect(tokenSpamReason(token('USDC', { chain: 'arbitrum', address: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8' }))).toBeUndefined();
  });

  it('leaves a symbol alone on a chain whose table does not know it', () => {
    expect(tokenSpamReason(token('USDT', { chain: 'linea' }))).toBeUndefined();
    expect(tokenSpamReason(token('ETH', { chain: 'zksync' }))).toBeUndefined();
  });

  it.each([
    ['Cyrillic letters', 'UЅDТ'],
    ['Greek letters', 'ΕΤΗ'],
    ['fullwidth forms', 'ＵＳＤＣ'],
    ['a zero-width space', 'US\u200bDT'],
    ['a dash', 'U-SDC'],
  ])('flags a known symbol spelt with %s, on any chain', (_what, symbol) => {
    expect(tokenSpamReason(token(symbol, { chain: 'linea' }))).toBe('lookalike');
  });

  it('leaves plain and real non-ASCII symbols alone', () => {
    for (const symbol of ['FAKE', 'USDC.e', 'USD₮', 'Ψ', 'WETH9']) expect(tokenSpamReason(token(symbol)), symbol).toBeUndefined();
  });
});

describe('bait', () => {
  it.each([
    ['$ USDC-Reward.com', ''],
    ['USDT', 'Visit usdt-gift.xyz to claim'],
    ['ETH', 'https://eth-drop.io'],
    ['CLAIM', 'Claim your airdrop'],
    ['Xyz', 'Go to www. rewards . site'],
  ])('flags a link or a call to act: %s / %s', (symbol, name) => {
    expect(tokenSpamReason(token(symbol, { name }))).toBe('bait');
  });

  it('leaves real names with domains alone', () => {
    for (const name of ['yearn.finance', 'Curve.Fi USD Stablecoin', 'ether.fi ETH', 'Wrapped Ether'])
      expect(tokenSpamReason(token('TKN', { name })), name).toBeUndefined();
  });
});

describe('address poisoning', () => {
  it('makes a transfer of zero tokens a candidate, even of a real token', () => {
    expect(transferSpamReason(token('USDT', { address: USDT }), '0')).toBe('poisoning');
    expect(transferSpamReason(token('USDT', { address: USDT }), '0.000001')).toBeUndefined();
  });

  it("gives the token's reason first", () => {
    expect(transferSpamReason(token('USDT'), '0')).toBe('lookalike');
  });
});

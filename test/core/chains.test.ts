import { describe, expect, it } from 'vitest';
import { CHAIN_INFO, KNOWN_TOKENS, chainsForNative, explorerUrl, isNativeSymbol } from '../../src/core/chains.js';
import { CHAINS } from '../../src/core/types.js';
import { coinKey } from '../../src/prices/coins.js';

const HASH = `0x${'ab'.repeat(32)}`;

describe('chain table (docs/sync.md "Chains and sources")', () => {
  it('has the fourteen EVM chains and Bitcoin, each with a distinct chain id, an https explorer and a sync source', () => {
    expect(CHAINS).toEqual([
      'ethereum',
      'polygon',
      'arbitrum',
      'bsc',
      'base',
      'optimism',
      'linea',
      'avalanche',
      'gnosis',
      'scroll',
      'zksync',
      'blast',
      'mantle',
      'celo',
      'bitcoin',
    ]);
    const evm = CHAINS.filter((c) => c !== 'bitcoin');
    expect(new Set(evm.map((c) => CHAIN_INFO[c].id)).size).toBe(evm.length);
    for (const c of evm) {
      const info = CHAIN_INFO[c];
      expect(info.explorerTx).toMatch(/^https:\/\/[a-z.]+\/tx\/$/);
      expect(info.native).toMatchObject({ address: null, decimals: 18 });
      // Every chain can be synced from somewhere: Etherscan (any plan) or a public Blockscout.
      expect(info.etherscan !== null || info.blockscout !== null).toBe(true);
      for (const t of KNOWN_TOKENS[c]) expect(t.address).toMatch(/^0x[0-9a-f]{40}$/);
    }
    expect([CHAIN_INFO.base.id, CHAIN_INFO.optimism.id, CHAIN_INFO.zksync.id, CHAIN_INFO.gnosis.id]).toEqual([8453, 10, 324, 100]);
  });

  it('has Bitcoin: BTC of 8 decimals, mempool.space links of bare txids, no EVM chain id, no Etherscan or Blockscout', () => {
    expect(CHAIN_INFO.bitcoin).toEqual({
      id: null,
      native: { symbol: 'BTC', address: null, decimals: 8 },
      explorerTx: 'https://mempool.space/tx/',
      etherscan: null,
      blockscout: null,
    });
    const txid = 'ab'.repeat(32);
    expect(explorerUrl('bitcoin', txid)).toBe(`https://mempool.space/tx/${txid}`);
    expect(explorerUrl('bitcoin', HASH)).toBe('');
    expect(explorerUrl('ethereum', txid)).toBe('');
    expect(chainsForNative('btc')).toEqual(['bitcoin']);
    // Prices as for any native coin: DefiLlama's and CoinGecko's id.
    expect(coinKey('bitcoin', null, '2024-05-01')).toBe('coingecko:bitcoin');
  });

  it('the free Etherscan plan serves what sync.md says; Base, OP, BSC and Avalanche need a paid one', () => {
    const free = CHAINS.filter((c) => CHAIN_INFO[c].etherscan === 'free');
    expect(free).toEqual(['ethereum', 'polygon', 'arbitrum', 'linea', 'gnosis', 'blast', 'mantle', 'celo']);
    expect(CHAINS.filter((c) => CHAIN_INFO[c].etherscan === 'paid')).toEqual(['bsc', 'base', 'optimism', 'avalanche']);
  });

  it('links each chain to its own explorer', () => {
    expect(explorerUrl('base', HASH)).toBe(`https://basescan.org/tx/${HASH}`);
    expect(explorerUrl('optimism', HASH)).toBe(`https://optimistic.etherscan.io/tx/${HASH}`);
    expect(explorerUrl('zksync', 'GENESIS_0x00')).toBe('');
  });

  it('reads native symbols case-insensitively: xDAI, AVAX, and ETH on several chains', () => {
    expect(chainsForNative('XDAI')).toEqual(['gnosis']);
    expect(chainsForNative('avax')).toEqual(['avalanche']);
    expect(chainsForNative('MATIC')).toEqual(['polygon']);
    expect(chainsForNative('ETH')).toEqual(['ethereum', 'arbitrum', 'base', 'optimism', 'linea', 'scroll', 'zksync', 'blast']);
    expect(isNativeSymbol('celo', 'CELO')).toBe(true);
    expect(isNativeSymbol('mantle', 'ETH')).toBe(false);
  });
});

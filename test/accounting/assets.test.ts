import { describe, expect, it } from 'vitest';
import { AssetTable, parseAssetEntries } from '../../src/accounting/assets.js';
import { txaErrorOf } from '../helpers/errors.js';

describe('asset table', () => {
  const table = new AssetTable();

  it('joins ETH on Ethereum and its rollups, and native USDC and USDT across chains', () => {
    const eth = table.assetOf('ethereum', { symbol: 'ETH', address: null });
    expect(table.assetOf('arbitrum', { symbol: 'ETH', address: null })).toEqual(eth);
    expect(table.assetOf('base', { symbol: 'eth', address: null })).toEqual(eth);
    const usdc = table.assetOf('ethereum', { symbol: 'USDC', address: '0xA0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' });
    expect(usdc).toEqual({ key: 'asset:USDC', symbol: 'USDC' });
    expect(table.assetOf('polygon', { symbol: 'USDC', address: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359' })).toEqual(usdc);
    expect(table.assetOf('arbitrum', { symbol: 'USDT', address: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9' })).toEqual(
      table.assetOf('ethereum', { symbol: 'USDT', address: '0xdac17f958d2ee523a2206206994597c13d831ec7' }),
    );
  });

  it('keeps other tokens apart by chain and contract: bridged copies, WETH, POL and BNB', () => {
    expect(table.assetOf('bsc', { symbol: 'USDC', address: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d' })).toEqual({
      key: 'bsc:0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d',
      symbol: 'USDC',
      // Its symbol is a table asset's too: reports name it with its chain (docs/accounting.md).
      label: 'USDC (bsc)',
    });
    expect(table.assetOf('ethereum', { symbol: 'WETH', address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' }).key).toBe(
      'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    );
    expect(table.assetOf('polygon', { symbol: 'POL', address: null }).key).toBe('polygon:POL');
    expect(table.assetOf('bsc', { symbol: 'ETH', address: null }).key).toBe('bsc:ETH');
  });

  it("takes the user's entries, which may join a token to a default asset or move it to another", () => {
    const user = new AssetTable(
      parseAssetEntries({
        assets: [
          { asset: 'USDC', members: ['bsc:0x8AC76a51cc950d9822d68b83fe1ad97b32cd580d'] },
          { asset: 'MYETH', members: ['arbitrum:ETH'] },
        ],
      }),
    );
    expect(user.assetOf('bsc', { symbol: 'USDC', address: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d' }).key).toBe('asset:USDC');
    expect(user.assetOf('arbitrum', { symbol: 'ETH', address: null })).toEqual({ key: 'asset:MYETH', symbol: 'MYETH' });
  });

  it.each([
    [[], 'assets'],
    [{ assets: {} }, 'assets'],
    [{ assets: [{ members: ['ethereum:ETH'] }] }, 'assets.0.asset'],
    [
      {
        assets: [
          { asset: 'A', members: ['ethereum:ETH'] },
          { asset: 'B', members: [] },
        ],
      },
      'assets.1.members',
    ],
    [{ assets: [{ asset: 'A', members: ['ethereum:ETH', 'no-chain'] }] }, 'assets.0.members.1'],
    [{ assets: [{ asset: 'A', members: [7] }] }, 'assets.0.members.0'],
  ])('refuses %j with INVALID_FIELD %s', (doc, field) => {
    expect(txaErrorOf(() => parseAssetEntries(doc))).toMatchObject({ code: 'INVALID_FIELD', field });
  });
});

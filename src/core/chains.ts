/** Facts about the four supported chains and well-known tokens on them (real contract addresses and decimals). */
import type { Chain, Token } from './types.js';

export interface ChainInfo {
  native: Token;
  explorerTx: string;
}

export const CHAIN_INFO: Record<Chain, ChainInfo> = {
  ethereum: { native: { symbol: 'ETH', address: null, decimals: 18 }, explorerTx: 'https://etherscan.io/tx/' },
  polygon: { native: { symbol: 'POL', address: null, decimals: 18 }, explorerTx: 'https://polygonscan.com/tx/' },
  arbitrum: { native: { symbol: 'ETH', address: null, decimals: 18 }, explorerTx: 'https://arbiscan.io/tx/' },
  bsc: { native: { symbol: 'BNB', address: null, decimals: 18 }, explorerTx: 'https://bscscan.com/tx/' },
};

export function explorerUrl(chain: Chain, txHash: string): string {
  return /^0x[0-9a-fA-F]{64}$/.test(txHash) ? CHAIN_INFO[chain].explorerTx + txHash : '';
}

/** Well-known ERC-20/BEP-20 tokens, keyed by chain; addresses lower-case. */
export const KNOWN_TOKENS: Record<Chain, Token[]> = {
  ethereum: [
    { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
    { symbol: 'USDT', address: '0xdac17f958d2ee523a2206206994597c13d831ec7', decimals: 6 },
    { symbol: 'DAI', address: '0x6b175474e89094c44da98b954eedeac495271d0f', decimals: 18 },
    { symbol: 'WETH', address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', decimals: 18 },
    { symbol: 'WBTC', address: '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', decimals: 8 },
    { symbol: 'LINK', address: '0x514910771af9ca656af840dff83e8264ecf986ca', decimals: 18 },
    { symbol: 'UNI', address: '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984', decimals: 18 },
  ],
  polygon: [
    { symbol: 'USDC', address: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', decimals: 6 },
    { symbol: 'USDT', address: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f', decimals: 6 },
    { symbol: 'WETH', address: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619', decimals: 18 },
    { symbol: 'DAI', address: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063', decimals: 18 },
  ],
  arbitrum: [
    { symbol: 'USDC', address: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', decimals: 6 },
    { symbol: 'ARB', address: '0x912ce59144191c1204e64559fe8253a0e49e6548', decimals: 18 },
    { symbol: 'USDT', address: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9', decimals: 6 },
    { symbol: 'GMX', address: '0xfc5a1a6eb076a2c7ad06ed22c90d7e710e35ad0a', decimals: 18 },
  ],
  bsc: [
    { symbol: 'USDT', address: '0x55d398326f99059ff775485246999027b3197955', decimals: 18 },
    { symbol: 'BUSD', address: '0xe9e7cea3dedca5984780bafc599bd69add087d56', decimals: 18 },
    { symbol: 'CAKE', address: '0x0e09fabb73bd3ade0a17ecc321fd13a19e81ce82', decimals: 18 },
    { symbol: 'USDC', address: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d', decimals: 18 },
  ],
};

/** A known token by contract address on any chain (addresses compare case-insensitively). */
export function findTokenByAddress(address: string): Token | undefined {
  const key = address.toLowerCase();
  for (const list of Object.values(KNOWN_TOKENS)) {
    const found = list.find((t) => t.address === key);
    if (found) return found;
  }
  return undefined;
}

/** Chain by the explorer's native symbol, for header names like `Value_IN(BNB)`. */
export function chainsForNative(symbol: string): Chain[] {
  const upper = symbol.toUpperCase();
  const native = upper === 'MATIC' ? 'POL' : upper;
  return (Object.keys(CHAIN_INFO) as Chain[]).filter((c) => CHAIN_INFO[c].native.symbol === native);
}

/**
 * Which coin a row is, in the price cache's terms (docs/prices.md): a token is `chain:address`
 * with txa's chain names; a native coin is `coingecko:<id>`, the id DefiLlama and CoinGecko both
 * take (rotki prefers it too). Each API client maps the chain names to its own.
 */
import { CHAIN_INFO, EXCHANGE_CHAIN, onChainTokenOf } from '../core/chains.js';
import type { Chain } from '../core/types.js';

/** CoinGecko ids of the native coins; the rollups' ETH is Ethereum's. */
const NATIVE_IDS: Record<Chain, string> = {
  ethereum: 'ethereum',
  polygon: 'polygon-ecosystem-token',
  arbitrum: 'ethereum',
  bsc: 'binancecoin',
  base: 'ethereum',
  optimism: 'ethereum',
  linea: 'ethereum',
  avalanche: 'avalanche-2',
  gnosis: 'xdai',
  scroll: 'ethereum',
  zksync: 'ethereum',
  blast: 'ethereum',
  mantle: 'mantle',
  celo: 'celo',
  bitcoin: 'bitcoin',
};

/** Polygon's native coin was MATIC until the POL migration of 2024-09-04; its price history is under the old id. */
const POL_SINCE = '2024-09-04';

/**
 * CoinGecko ids of coins exchanges hold that are no token of a chain txa knows (an exchange's
 * other coins are priced as the on-chain coin of their symbol).
 */
const EXCHANGE_COIN_IDS: Record<string, string> = {
  BTC: 'bitcoin',
  SOL: 'solana',
  XRP: 'ripple',
  ADA: 'cardano',
  DOGE: 'dogecoin',
  DOT: 'polkadot',
  LTC: 'litecoin',
  BCH: 'bitcoin-cash',
  XLM: 'stellar',
  ATOM: 'cosmos',
  TRX: 'tron',
  ETC: 'ethereum-classic',
};

/**
 * The cache's key of a row's coin on `day`, or null for a chain txa does not know. A row of an
 * exchange account (docs/storage.md "Exchange wallets") is known by `symbol`: the on-chain coin of
 * that symbol (ETH is Ethereum's, USDC Ethereum's USDC), else a coin of EXCHANGE_COIN_IDS.
 */
export function coinKey(chain: string, tokenAddress: string | null, day: string, symbol = ''): string | null {
  if (chain === EXCHANGE_CHAIN) {
    const onChain = onChainTokenOf(symbol);
    if (onChain) return coinKey(onChain.chain, onChain.token.address, day);
    const id = EXCHANGE_COIN_IDS[symbol.toUpperCase()];
    return id ? `coingecko:${id}` : null;
  }
  if (!Object.hasOwn(CHAIN_INFO, chain)) return null;
  if (tokenAddress) return `${chain}:${tokenAddress.toLowerCase()}`;
  if (chain === 'polygon' && day < POL_SINCE) return 'coingecko:matic-network';
  return `coingecko:${NATIVE_IDS[chain as Chain]}`;
}

/** The key split into a CoinGecko id, or a chain and a contract address. */
export function parseCoinKey(key: string): { coingeckoId: string } | { chain: Chain; address: string } {
  const [head, rest] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  return head === 'coingecko' ? { coingeckoId: rest } : { chain: head as Chain, address: rest };
}

/** DefiLlama's chain names where they differ from txa's (docs/prices.md). */
export const DEFILLAMA_CHAINS: Partial<Record<Chain, string>> = { avalanche: 'avax', gnosis: 'xdai', zksync: 'era' };

/** CoinGecko's asset platform ids, for contract addresses. */
export const COINGECKO_PLATFORMS: Record<Chain, string> = {
  ethereum: 'ethereum',
  polygon: 'polygon-pos',
  arbitrum: 'arbitrum-one',
  bsc: 'binance-smart-chain',
  base: 'base',
  optimism: 'optimistic-ethereum',
  linea: 'linea',
  avalanche: 'avalanche',
  gnosis: 'xdai',
  scroll: 'scroll',
  zksync: 'zksync',
  blast: 'blast',
  mantle: 'mantle',
  celo: 'celo',
  // Bitcoin has no tokens; its BTC is `coingecko:bitcoin` (NATIVE_IDS).
  bitcoin: 'bitcoin',
};

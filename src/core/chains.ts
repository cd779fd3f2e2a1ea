/**
 * Facts about the supported chains (docs/sync.md "Chains and sources"): the EVM chains' chain id, native coin, explorer, and which
 * explorer API serves the chain to `txa wallet sync` (docs/sync.md), plus
 * well-known tokens on them (real contract addresses and decimals); and Bitcoin, synced from an
 * Esplora API instead (docs/sync.md "Bitcoin").
 */
import type { Chain, Token } from './types.js';

export interface ChainInfo {
  /** EIP-155 chain id (Etherscan V2's `chainid`); null for Bitcoin, which is no EVM chain. */
  id: number | null;
  native: Token;
  explorerTx: string;
  /**
   * Etherscan API V2: `free` when its free plan serves the chain, `paid` when only paid plans
   * do, null when Etherscan no longer serves it (Scroll) or never did (zkSync Era).
   */
  etherscan: 'free' | 'paid' | null;
  /** The public Blockscout instance's Etherscan-compatible API, where one exists. */
  blockscout: string | null;
  /** A rollup that charges an L1 data fee on top of gas (OP stack, Scroll; docs/sync.md "Rules"). */
  l1Fee?: true;
}

const native = (symbol: string): Token => ({ symbol, address: null, decimals: 18 });
const blockscout = (host: string) => `https://${host}.blockscout.com/api`;

export const CHAIN_INFO: Record<Chain, ChainInfo> = {
  ethereum: { id: 1, native: native('ETH'), explorerTx: 'https://etherscan.io/tx/', etherscan: 'free', blockscout: blockscout('eth') },
  polygon: { id: 137, native: native('POL'), explorerTx: 'https://polygonscan.com/tx/', etherscan: 'free', blockscout: blockscout('polygon') },
  arbitrum: { id: 42161, native: native('ETH'), explorerTx: 'https://arbiscan.io/tx/', etherscan: 'free', blockscout: blockscout('arbitrum') },
  bsc: { id: 56, native: native('BNB'), explorerTx: 'https://bscscan.com/tx/', etherscan: 'paid', blockscout: null },
  base: { id: 8453, native: native('ETH'), explorerTx: 'https://basescan.org/tx/', etherscan: 'paid', blockscout: blockscout('base'), l1Fee: true },
  optimism: {
    id: 10,
    native: native('ETH'),
    explorerTx: 'https://optimistic.etherscan.io/tx/',
    etherscan: 'paid',
    blockscout: blockscout('optimism'),
    l1Fee: true,
  },
  linea: { id: 59144, native: native('ETH'), explorerTx: 'https://lineascan.build/tx/', etherscan: 'free', blockscout: null },
  avalanche: { id: 43114, native: native('AVAX'), explorerTx: 'https://snowscan.xyz/tx/', etherscan: 'paid', blockscout: null },
  gnosis: { id: 100, native: native('xDAI'), explorerTx: 'https://gnosisscan.io/tx/', etherscan: 'free', blockscout: blockscout('gnosis') },
  scroll: { id: 534352, native: native('ETH'), explorerTx: 'https://scrollscan.com/tx/', etherscan: null, blockscout: blockscout('scroll'), l1Fee: true },
  zksync: { id: 324, native: native('ETH'), explorerTx: 'https://explorer.zksync.io/tx/', etherscan: null, blockscout: blockscout('zksync') },
  blast: { id: 81457, native: native('ETH'), explorerTx: 'https://blastscan.io/tx/', etherscan: 'free', blockscout: null, l1Fee: true },
  mantle: { id: 5000, native: native('MNT'), explorerTx: 'https://mantlescan.xyz/tx/', etherscan: 'free', blockscout: null, l1Fee: true },
  celo: { id: 42220, native: native('CELO'), explorerTx: 'https://celoscan.io/tx/', etherscan: 'free', blockscout: blockscout('celo') },
  // Synced from an Esplora API (src/sync/bitcoin/), never from Etherscan or Blockscout.
  bitcoin: { id: null, native: { symbol: 'BTC', address: null, decimals: 8 }, explorerTx: 'https://mempool.space/tx/', etherscan: null, blockscout: null },
};

/**
 * The `chain` the store keeps for an exchange wallet and its rows (docs/storage.md "Exchange
 * wallets"): a value no chain has, so chain filters never match them, shown as null everywhere.
 */
export const EXCHANGE_CHAIN = 'exchange';

/** A stored chain as the API shows it: null for an exchange wallet's. */
export function publicChain(stored: string): Chain | null {
  return stored === EXCHANGE_CHAIN ? null : (stored as Chain);
}

/** Chains whose transactions are not EVM ones: their own addresses, hashes and sync (docs/sync.md "Bitcoin"). */
export const isBitcoin = (chain: string): chain is 'bitcoin' => chain === 'bitcoin';

export function explorerUrl(chain: Chain, txHash: string): string {
  // A Bitcoin txid is 64 hex digits without 0x (mempool.space links it so).
  const hash = isBitcoin(chain) ? /^[0-9a-f]{64}$/ : /^0x[0-9a-fA-F]{64}$/;
  return hash.test(txHash) ? CHAIN_INFO[chain].explorerTx + txHash : '';
}

/** WETH's predeploy on OP-stack chains (Optimism, Base). */
const OP_STACK_WETH: Token = { symbol: 'WETH', address: '0x4200000000000000000000000000000000000006', decimals: 18 };

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
  base: [{ symbol: 'USDC', address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', decimals: 6 }, OP_STACK_WETH],
  optimism: [
    { symbol: 'USDC', address: '0x0b2c639c533813f4aa9d7837caf62653d097ff85', decimals: 6 },
    { symbol: 'OP', address: '0x4200000000000000000000000000000000000042', decimals: 18 },
    OP_STACK_WETH,
  ],
  linea: [],
  avalanche: [
    { symbol: 'USDC', address: '0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e', decimals: 6 },
    { symbol: 'WAVAX', address: '0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7', decimals: 18 },
  ],
  gnosis: [{ symbol: 'WXDAI', address: '0xe91d153e0b41518a2ce8dd3d7944fa863463a97d', decimals: 18 }],
  scroll: [{ symbol: 'USDC', address: '0x06efdbff2a14a7c8e15944d1f4a48f9f95f663a4', decimals: 6 }],
  zksync: [],
  blast: [{ symbol: 'USDB', address: '0x4300000000000000000000000000000000000003', decimals: 18 }],
  mantle: [],
  celo: [{ symbol: 'cUSD', address: '0x765de816845861e75a25fca122bb6898b8b1282a', decimals: 18 }],
  bitcoin: [],
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

/** Whether `symbol` names the chain's native coin (case-insensitively; MATIC counts as POL). */
export function isNativeSymbol(chain: Chain, symbol: string): boolean {
  const upper = symbol.trim().toUpperCase();
  return (upper === 'MATIC' ? 'POL' : upper) === CHAIN_INFO[chain].native.symbol.toUpperCase();
}

/** Chains by the explorer's native symbol, for header names like `Value_IN(BNB)`, `Value_IN(xDAI)`. */
export function chainsForNative(symbol: string): Chain[] {
  return (Object.keys(CHAIN_INFO) as Chain[]).filter((c) => isNativeSymbol(c, symbol));
}

/**
 * The on-chain token an exchange's symbol stands for (docs/accounting.md "Assets"): a chain's
 * native coin (ETH → Ethereum's, MATIC → POL), else a known token of that symbol, Ethereum's
 * first. Undefined for a coin txa knows on no chain (BTC, SOL): it is its own asset.
 */
export function onChainTokenOf(symbol: string): { chain: Chain; token: Token } | undefined {
  const [native] = chainsForNative(symbol);
  if (native) return { chain: native, token: CHAIN_INFO[native].native };
  const upper = symbol.trim().toUpperCase();
  for (const chain of Object.keys(KNOWN_TOKENS) as Chain[]) {
    const token = KNOWN_TOKENS[chain].find((t) => t.symbol.toUpperCase() === upper);
    if (token) return { chain, token };
  }
  return undefined;
}

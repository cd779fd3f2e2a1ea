/**
 * Which tokens are one asset for cost basis (docs/accounting.md, "Assets"). A token is its chain
 * and contract address, or its chain and symbol for a chain's native coin (`ethereum:ETH`). By
 * default each is its own asset; the table joins those that are the same asset on several
 * chains: ETH on Ethereum and its rollups, and USDC and USDT where their issuer mints them
 * natively (bridged copies such as BSC's Binance-Peg tokens stay apart). The user extends it.
 */
import { TxaError } from '../core/errors.js';
import { EXCHANGE_CHAIN, onChainTokenOf } from '../core/chains.js';
import type { Token } from '../core/types.js';

export interface AssetEntry {
  /** The asset's name in reports, e.g. `USDC`. */
  asset: string;
  /** Tokens that are this asset: `chain:0x…address` or `chain:SYMBOL` for a native coin. */
  members: string[];
}

export interface Asset {
  /** What lots are pooled by: the entry's name, or the token itself. */
  key: string;
  symbol: string;
  /**
   * The name reports show where the symbol alone would name two assets: a token outside the table
   * whose symbol is a table asset's name (BSC's Binance-Peg USDT beside the pooled USDT) is
   * `USDT (bsc)`. Absent where the symbol is unambiguous; assetLabel reads it.
   */
  label?: string;
}

/** The name a report shows for an asset: its label where its symbol is shared, else its symbol (docs/accounting.md "Assets"). */
export function assetLabel(asset: Asset): string {
  return asset.label ?? asset.symbol;
}

export const DEFAULT_ASSETS: readonly AssetEntry[] = [
  {
    asset: 'ETH',
    members: ['ethereum:ETH', 'arbitrum:ETH', 'optimism:ETH', 'base:ETH', 'linea:ETH', 'scroll:ETH', 'zksync:ETH', 'blast:ETH'],
  },
  {
    asset: 'USDC',
    members: [
      'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      'arbitrum:0xaf88d065e77c8cc2239327c5edb3a432268e5831',
      'polygon:0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
      'base:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      'optimism:0x0b2c639c533813f4aa9d7837caf62653d097ff85',
      'avalanche:0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e',
    ],
  },
  {
    asset: 'USDT',
    members: [
      'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7',
      'polygon:0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
      'arbitrum:0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9',
      'avalanche:0x9702230a8ea53601f5cd2dc00fdbc13d4df4a8c7',
    ],
  },
];

/** A token's own identity: `chain:address` (lower case), or `chain:SYMBOL` for a native coin. */
export function tokenId(chain: string, token: Pick<Token, 'symbol' | 'address'>): string {
  return `${chain}:${token.address ? token.address.toLowerCase() : token.symbol.toUpperCase()}`;
}

/** `chain:0x…` lower-cased; `chain:SYMBOL` upper-cased, as tokenId writes them. */
function normalizeMember(member: string): string {
  const [chain = '', id = ''] = member.split(':');
  return `${chain.toLowerCase()}:${id.startsWith('0x') || id.startsWith('0X') ? id.toLowerCase() : id.toUpperCase()}`;
}

export class AssetTable {
  private readonly byToken = new Map<string, string>();
  /** The table's asset names, upper-cased: a token outside the table with one of them as its symbol gets a label. */
  private readonly names = new Set<string>();

  /** The default table, then `extra` entries (a token named again moves to the later entry). */
  constructor(extra: readonly AssetEntry[] = []) {
    for (const entry of [...DEFAULT_ASSETS, ...extra]) {
      for (const member of entry.members) this.byToken.set(normalizeMember(member), entry.asset);
      this.names.add(entry.asset.toUpperCase());
    }
  }

  assetOf(chain: string, token: Pick<Token, 'symbol' | 'address'>): Asset {
    if (chain === EXCHANGE_CHAIN) return this.exchangeAsset(token.symbol);
    const id = tokenId(chain, token);
    const name = this.byToken.get(id);
    if (name !== undefined) return { key: `asset:${name}`, symbol: name };
    return this.names.has(token.symbol.toUpperCase())
      ? { key: id, symbol: token.symbol, label: `${token.symbol} (${chain})` }
      : { key: id, symbol: token.symbol };
  }

  /**
   * A coin held at an exchange, known by its symbol only: the asset the table names `exchange:SYMBOL`
   * (the user's entries), else the on-chain token the symbol stands for (core/chains.ts
   * onChainTokenOf: ETH is ETH, USDC is USDC, LINK is Ethereum's LINK), so lots move between an
   * exchange and a wallet; else the symbol's own asset, the same at every exchange.
   */
  private exchangeAsset(symbol: string): Asset {
    const own = tokenId(EXCHANGE_CHAIN, { symbol, address: null });
    const named = this.byToken.get(own);
    if (named !== undefined) return { key: `asset:${named}`, symbol: named };
    const onChain = onChainTokenOf(symbol);
    return onChain ? this.assetOf(onChain.chain, onChain.token) : { key: own, symbol: symbol.toUpperCase() };
  }
}

const MEMBER = /^[a-z0-9-]+:(0x[0-9a-fA-F]{40}|[^\s:]+)$/i;

/** Parses the user's entries (`{"assets":[{"asset","members"}]}`); a bad one is INVALID_FIELD with its dotted path. */
export function parseAssetEntries(doc: unknown): AssetEntry[] {
  const bad = (field: string, message: string) => new TxaError('INVALID_FIELD', message, { field });
  const list = (doc as { assets?: unknown } | null)?.assets;
  if (!Array.isArray(list)) throw bad('assets', 'the asset table must be {"assets": [{"asset": NAME, "members": ["chain:address", …]}]}');
  return list.map((entry: unknown, i) => {
    const e = entry as { asset?: unknown; members?: unknown } | null;
    if (typeof e?.asset !== 'string' || e.asset.trim() === '') throw bad(`assets.${i}.asset`, 'asset must be a non-empty name');
    if (!Array.isArray(e.members) || e.members.length === 0) throw bad(`assets.${i}.members`, 'members must list at least one chain:address');
    e.members.forEach((m: unknown, j) => {
      if (typeof m !== 'string' || !MEMBER.test(m)) throw bad(`assets.${i}.members.${j}`, `'${String(m)}' is not chain:0x…address or chain:SYMBOL`);
    });
    return { asset: e.asset.trim(), members: e.members as string[] };
  });
}

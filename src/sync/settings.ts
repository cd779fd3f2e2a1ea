/**
 * What a sync needs to know beyond the ledger (docs/sync.md), read from the environment (and the
 * profile's Etherscan key, which the CLI passes in), and which explorer serves a chain.
 */
import { TxaError } from '../core/errors.js';
import { CHAIN_INFO, isBitcoin } from '../core/chains.js';
import type { Chain } from '../core/types.js';
import { DEFAULT_LIMITS, type AnswerLimits } from './http.js';
import { article } from '../core/errno.js';

export const ETHERSCAN_URL = 'https://api.etherscan.io/v2/api';
/** Bitcoin's Esplora API (docs/sync.md "Bitcoin"): mempool.space's public one unless TXA_ESPLORA_URL names another. */
export const ESPLORA_URL = 'https://mempool.space/api';
const DEFAULT_RPS = 3;
const DEFAULT_PAGE_SIZE = 1000;
/** Etherscan and Blockscout refuse page × offset above 10,000. */
const MAX_PAGE_SIZE = 10_000;
/** A call's deadline can be raised to 10 minutes, no further: a sync must not hang for good. */
const MAX_TIMEOUT_S = 600;
const BLOCKSCOUT_PREFIX = 'TXA_BLOCKSCOUT_URL_';

export interface SyncSettings {
  etherscanUrl: string;
  etherscanKey: string | undefined;
  /** `TXA_BLOCKSCOUT_URL_<CHAIN>` values by chain. */
  blockscoutUrls: Partial<Record<Chain, string>>;
  /** `TXA_ESPLORA_URL`: where Bitcoin wallets sync from. */
  esploraUrl: string;
  rps: number;
  pageSize: number;
  /** Each call's size cap and deadline (`TXA_SYNC_TIMEOUT`, seconds). */
  limits: AnswerLimits;
}

export interface ExplorerSource {
  kind: 'etherscan' | 'blockscout' | 'esplora';
  url: string;
  chain: Chain;
  /** Etherscan only: the key every call needs. */
  apiKey?: string;
}

export function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, integer: boolean, max = Infinity): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > max || (integer && !Number.isInteger(n))) {
    const what = integer ? `a whole number from 1 to ${max}` : 'a positive number';
    throw new TxaError('USAGE_ERROR', `${name} must be ${what}, got '${raw}'`, { field: name });
  }
  return n;
}

export function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^https?:\/\/[^/]+/.test(raw)) throw new TxaError('USAGE_ERROR', `${name} must be an http(s) URL, got '${raw}'`, { field: name });
  return raw;
}

/** The size cap and the deadline of each call, the deadline in seconds from `name` (docs/sync.md, Rows a sync refuses). */
export function answerLimits(env: NodeJS.ProcessEnv, name: string): AnswerLimits {
  return { ...DEFAULT_LIMITS, deadlineMs: positive(env, name, DEFAULT_LIMITS.deadlineMs / 1000, false, MAX_TIMEOUT_S) * 1000 };
}

/** The settings from `env`; `profileKey` is the profile's `etherscan_api_key` (the environment wins). */
export function syncSettings(env: NodeJS.ProcessEnv, profileKey?: string): SyncSettings {
  const chains = (Object.keys(CHAIN_INFO) as Chain[]).filter((c) => !isBitcoin(c));
  // A misspelt chain would sync silently from another source than the one the user named.
  const byName = new Map(chains.map((chain) => [`${BLOCKSCOUT_PREFIX}${chain.toUpperCase()}`, chain]));
  for (const name of Object.keys(env)) {
    if (name.startsWith(BLOCKSCOUT_PREFIX) && env[name] && !byName.has(name)) {
      throw new TxaError('USAGE_ERROR', `${name} names no chain txa knows: use ${BLOCKSCOUT_PREFIX}<CHAIN> with a chain of ${chains.join(', ')}`, {
        field: name,
      });
    }
  }
  const blockscoutUrls: SyncSettings['blockscoutUrls'] = {};
  for (const [name, chain] of byName) {
    const url = httpUrl(env, name);
    if (url) blockscoutUrls[chain] = url;
  }
  return {
    etherscanUrl: httpUrl(env, 'TXA_ETHERSCAN_URL') ?? ETHERSCAN_URL,
    etherscanKey: env.TXA_ETHERSCAN_API_KEY || profileKey || undefined,
    blockscoutUrls,
    esploraUrl: httpUrl(env, 'TXA_ESPLORA_URL') ?? ESPLORA_URL,
    rps: positive(env, 'TXA_SYNC_RPS', DEFAULT_RPS, false),
    pageSize: positive(env, 'TXA_SYNC_PAGE_SIZE', DEFAULT_PAGE_SIZE, true, MAX_PAGE_SIZE),
    limits: answerLimits(env, 'TXA_SYNC_TIMEOUT'),
  };
}

/**
 * The explorer that serves a chain (docs/sync.md): a Blockscout named for it in the environment;
 * else Etherscan where its free plan serves the chain, or where only paid plans do and a key is
 * set; else the chain's public Blockscout. Bitcoin: the Esplora API. Etherscan without a key is SYNC_UNAUTHORIZED before
 * any call.
 */
export function sourceFor(chain: Chain, settings: SyncSettings): ExplorerSource {
  if (isBitcoin(chain)) return { kind: 'esplora', url: settings.esploraUrl, chain };
  const info = CHAIN_INFO[chain];
  const named = settings.blockscoutUrls[chain];
  if (named) return { kind: 'blockscout', url: named, chain };
  const key = settings.etherscanKey;
  if (key && info.etherscan) return { kind: 'etherscan', url: settings.etherscanUrl, chain, apiKey: key };
  if (info.etherscan !== 'free' && info.blockscout) return { kind: 'blockscout', url: info.blockscout, chain };
  if (!info.etherscan) {
    throw new TxaError('SYNC_UNSUPPORTED_CHAIN', `no explorer API txa knows serves ${chain}`, {
      field: 'chain',
      hint: `Name an Etherscan-compatible API for it: TXA_BLOCKSCOUT_URL_${chain.toUpperCase()}=https://…/api`,
    });
  }
  const fallback = info.blockscout ? `, or sync from Blockscout without a key: TXA_BLOCKSCOUT_URL_${chain.toUpperCase()}=${info.blockscout}` : '';
  throw new TxaError('SYNC_UNAUTHORIZED', `syncing ${article(chain)} ${chain} wallet from Etherscan needs an API key, and none is set`, {
    hint: `Set TXA_ETHERSCAN_API_KEY or run: txa config set etherscan_api_key KEY (free at https://etherscan.io/apis)${fallback}`,
  });
}

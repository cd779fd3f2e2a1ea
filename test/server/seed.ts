/** A deterministic ledger for the server, remote and conformance tests: fixed ids, seeded rows. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { createKey, type Access } from '../../src/engine/keys.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import { amountKey } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';
import type { Tier } from '../../src/core/types.js';

export const WS = 'ws_main';
export const OTHER_WS = 'ws_other';
const CHAINS = ['ethereum', 'polygon', 'arbitrum', 'bsc'] as const;
const TOKENS = [
  { symbol: 'ETH', address: null, decimals: 18 },
  { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
];
const T0 = Date.UTC(2024, 0, 1) / 1000;

/** Park–Miller: the same rows on every run. */
function prng(seed: number) {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

export function seedTransactions(engine: Engine, ws: string, wallets: { id: string; chain: string }[], count: number, seed = 7): string[] {
  const rnd = prng(seed);
  const rows: NewTransaction[] = [];
  for (let i = 0; i < count; i++) {
    const w = wallets[i % wallets.length]!;
    const token = TOKENS[Math.floor(rnd() * TOKENS.length)]!;
    const amount = `${Math.floor(rnd() * 5000)}.${String(Math.floor(rnd() * 1e6)).padStart(6, '0')}`.replace(/\.?0+$/, '') || '0';
    const hash = `0x${(i + 1).toString(16).padStart(64, '0')}`;
    rows.push({
      id: transactionId(w.id, hash, '0'),
      workspace_id: ws,
      wallet_id: w.id,
      chain: w.chain,
      tx_hash: hash,
      transfer_key: '0',
      from_address: '0x1111111111111111111111111111111111111111',
      to_address: '0x2222222222222222222222222222222222222222',
      token_symbol: token.symbol,
      token_address: token.address,
      token_decimals: token.decimals,
      amount,
      amount_key: amountKey(amount),
      fiat_cents: Math.floor(rnd() * 10_000_000),
      direction: rnd() < 0.5 ? 'inflow' : 'outflow',
      type: 'transfer',
      ts: T0 + Math.floor((i * (365 * 86400)) / Math.max(count, 1)),
      notes: i % 7 === 0 ? `note ${i}` : null,
    });
  }
  engine.write(() => insertTransactions(engine.db, rows, T0));
  return rows.map((r) => r.id);
}

export interface Seeded {
  dir: string;
  path: string;
  engine: Engine;
  wallets: string[];
  txIds: string[];
  key: (access?: Access, ws?: string) => string;
}

/** Two workspaces (WS with rows, OTHER_WS with one wallet and row of its own). */
export function seedLedger(opts: { tier?: Tier; rows?: number; rateLimit?: number } = {}): Seeded {
  const dir = mkdtempSync(join(tmpdir(), 'txa-srv-'));
  const path = join(dir, 'ledger.db');
  // Signed links as a serve on the default address makes them (serve sets the URL it listens on).
  const engine = Engine.open(path, { publicBaseUrl: 'http://127.0.0.1:8080' });
  const tier = opts.tier ?? 'pro';
  createWorkspace(engine, { id: WS, name: 'Main', tier, rate_limit: tier === 'enterprise' ? (opts.rateLimit ?? null) : null });
  createWorkspace(engine, { id: OTHER_WS, name: 'Other', tier: 'pro' });
  const wallets = engine.write(() =>
    CHAINS.slice(0, 2).map((chain, i) =>
      insertNewWallet(engine, WS, { id: `wal_${chain}`, address: `0x${String(i + 1).padStart(40, 'b')}`, chain, label: `${chain} main` }),
    ),
  );
  const other = engine.write(() => insertNewWallet(engine, OTHER_WS, { id: 'wal_other', address: `0x${'c'.repeat(40)}`, chain: 'ethereum', label: 'other' }));
  const txIds = seedTransactions(engine, WS, wallets, opts.rows ?? 40);
  seedTransactions(engine, OTHER_WS, [other], 1, 99);
  return { dir, path, engine, wallets: wallets.map((w) => w.id), txIds, key: (access = 'full', ws = WS) => createKey(engine, ws, { access }).key };
}

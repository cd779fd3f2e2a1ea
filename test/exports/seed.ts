/** Deterministic ledgers for the export tests, written straight through the store (no importer needed). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { createTag } from '../../src/engine/tags.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import { amountKey } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';
import type { Tier } from '../../src/core/types.js';

export interface SeedTx {
  /** The stored chain (an exchange wallet's rows: EXCHANGE_CHAIN); default ethereum. */
  chain?: string;
  wallet: number;
  day: string;
  time?: string;
  amount: string;
  /** Fiat value as decimal text, or null. */
  fiat: string | null;
  direction: 'inflow' | 'outflow';
  symbol?: string;
  notes?: string | null;
  hash?: string;
  from?: string;
  /** Default: the wallet's own address. */
  to?: string;
}

/** `publicBaseUrl`: the ledger as a `txa serve` at that URL runs it (signed links); without, as the local CLI without one. */
export function tempLedger(tier: Tier = 'pro', currency = 'USD', publicBaseUrl?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'txa-exp-'));
  const path = join(dir, 'ledger.db');
  const engine = Engine.open(path, { publicBaseUrl });
  const ws = createWorkspace(engine, { name: 'Exports', tier, currency }).id;
  return { dir, path, engine, ws };
}

export const ADDR = (i: number) => `0x${String(i + 1).padStart(40, 'a')}`;

export function addWallets(engine: Engine, ws: string, labels: string[]): string[] {
  return engine.write(() => labels.map((label, i) => insertNewWallet(engine, ws, { address: ADDR(i), chain: 'ethereum', label }).id));
}

export function addTxs(engine: Engine, ws: string, wallets: string[], txs: SeedTx[]): string[] {
  const rows: NewTransaction[] = txs.map((t, i) => {
    const walletId = wallets[t.wallet]!;
    const hash = t.hash ?? `0x${i.toString(16).padStart(64, '0')}`;
    const [int = '0', frac = ''] = (t.fiat ?? '0').split('.');
    return {
      id: transactionId(walletId, hash, '0'),
      workspace_id: ws,
      wallet_id: walletId,
      chain: t.chain ?? 'ethereum',
      tx_hash: hash,
      transfer_key: '0',
      from_address: t.from ?? ADDR(90),
      to_address: t.to ?? ADDR(t.wallet),
      token_symbol: t.symbol ?? 'ETH',
      token_address: null,
      token_decimals: 18,
      amount: t.amount,
      amount_key: amountKey(t.amount),
      fiat_cents: t.fiat === null ? null : Number(int) * 100 + Number(frac.padEnd(2, '0')),
      direction: t.direction,
      type: 'transfer',
      ts: Date.parse(`${t.day}T${t.time ?? '12:00:00'}Z`) / 1000,
      notes: t.notes ?? null,
    };
  });
  engine.write(() => insertTransactions(engine.db, rows, Math.floor(Date.now() / 1000)));
  return rows.map((r) => r.id);
}

/** n simple rows, one per hour from 2024-01-01, alternating direction, fiat = i cents + 1.00. */
export function addMany(engine: Engine, ws: string, wallets: string[], n: number): void {
  const base = Date.parse('2024-01-01T00:00:00Z');
  const txs: SeedTx[] = [];
  for (let i = 0; i < n; i++) {
    const at = new Date(base + i * 3_600_000).toISOString();
    txs.push({
      wallet: i % wallets.length,
      day: at.slice(0, 10),
      time: at.slice(11, 19),
      amount: `${i}.5`,
      fiat: `${1 + Math.floor(i / 100)}.${String(i % 100).padStart(2, '0')}`,
      direction: i % 2 ? 'outflow' : 'inflow',
    });
  }
  addTxs(engine, ws, wallets, txs);
}

export function tag(engine: Engine, ws: string, name: string, type: 'income' | 'expense' | 'neutral' = 'neutral'): string {
  return createTag(engine, ws, { name, type }).id;
}

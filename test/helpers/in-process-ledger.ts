/**
 * A throw-away ledger with one workspace, for commands run in process (test/helpers/in-process.ts):
 * TXA_CONFIG_DIR points into it, so no test reads or writes the user's profile.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addWallet } from '../../src/engine/wallets.js';
import { importFile } from '../../src/engine/imports.js';

export interface TempLedger {
  dir: string;
  db: string;
  workspace: string;
}

/** `seed` writes what a test needs through the engine (files into `dir`), before the commands open the ledger. */
export function tempLedger(seed?: (engine: Engine, workspace: string, dir: string) => void): TempLedger {
  const dir = mkdtempSync(join(tmpdir(), 'txa-in-process-'));
  const db = join(dir, 'ledger.db');
  process.env.TXA_CONFIG_DIR = join(dir, 'config');
  const engine = Engine.open(db);
  try {
    const workspace = createWorkspace(engine, { name: 'In process' }).id;
    seed?.(engine, workspace, dir);
    return { dir, db, workspace };
  } finally {
    engine.close();
  }
}

export const WALLET_ADDRESS = `0x${'1'.repeat(40)}`;

/**
 * Adds the wallet 0x11…11 (Ethereum) and imports one row into it through the NDJSON import: an
 * inflow of 1 ETH on 2025-03-01 from 0x22…22, with `fields` changed. The wallet's id.
 */
export function importOneRow(engine: Engine, workspace: string, dir: string, fields: Record<string, unknown> = {}): string {
  const wallet = addWallet(engine, workspace, { address: WALLET_ADDRESS, chain: 'ethereum' }).id;
  const row = {
    tx_hash: `0x${'a'.repeat(64)}`,
    timestamp: '2025-03-01T10:00:00Z',
    amount: '1',
    token: { symbol: 'ETH', address: null, decimals: 18 },
    direction: 'inflow',
    from_address: `0x${'2'.repeat(40)}`,
    to_address: WALLET_ADDRESS,
    ...fields,
  };
  writeFileSync(join(dir, 'rows.ndjson'), `${JSON.stringify(row)}\n`);
  importFile(engine, workspace, join(dir, 'rows.ndjson'), { walletId: wallet });
  return wallet;
}

/**
 * The importer tests' ledger: for each test, a fresh enterprise workspace on a real SQLite file,
 * and the imported transactions read back as stored.
 */
import { afterEach, beforeEach } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { importFile, type ImportOptions, type ImportSummary } from '../../src/engine/imports.js';
import { addWallet } from '../../src/engine/wallets.js';
import { tempEngine } from './engine.js';

export interface StoredRow {
  tx_hash: string;
  amount: string;
  fiat_cents: number | null;
  direction: string;
  type: string;
  token_symbol: string;
  token_address: string | null;
  token_decimals: number;
  from_address: string;
  to_address: string;
  notes: string | null;
  ts: number;
}

export interface ImportLedger {
  engine: Engine;
  ws: string;
  dir: string;
  /** Adds a wallet to the workspace; returns its id. */
  wallet(address: string, chain: string): string;
  /** importFile into the workspace. */
  importFile(path: string, opts?: ImportOptions): ImportSummary;
  /** A wallet's rows matching `where`, in time order, fees before the value rows of a tx. */
  rows(walletId: string, where?: string, ...params: unknown[]): StoredRow[];
  count(walletId: string, where?: string, ...params: unknown[]): number;
}

/** Registers the hooks that open and close each test's ledger; the object returned is the current one. */
export function importLedger(): ImportLedger {
  const ledger: ImportLedger = {
    engine: undefined as unknown as Engine,
    ws: '',
    dir: '',
    wallet: (address, chain) => addWallet(ledger.engine, ledger.ws, { address, chain }).id,
    importFile: (path, opts) => importFile(ledger.engine, ledger.ws, path, opts),
    rows: (walletId, where = '1', ...params) =>
      ledger.engine.db.prepare(`SELECT * FROM transactions WHERE wallet_id = ? AND ${where} ORDER BY ts, transfer_key`).all(walletId, ...params) as StoredRow[],
    count: (walletId, where = '1', ...params) =>
      (ledger.engine.db.prepare(`SELECT count(*) AS n FROM transactions WHERE wallet_id = ? AND ${where}`).get(walletId, ...params) as { n: number }).n,
  };
  beforeEach(() => Object.assign(ledger, tempEngine('enterprise')));
  afterEach(() => ledger.engine.close());
  return ledger;
}

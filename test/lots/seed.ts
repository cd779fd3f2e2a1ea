/**
 * The worked example of docs/lots.md: three wallets (Alpha and Beta on Ethereum, Gamma on
 * Arbitrum, added in that order), ETH bought 2023–2024, a pooled sale in 2024, an inflow with no
 * value (no lot) that leaves Gamma holding more than the pool has lots, and a 2025 sale from Gamma.
 *
 * | row | day        | wallet | ETH    | value    | lot  |
 * |-----|------------|--------|--------|----------|------|
 * | L1  | 2023-01-10 | Alpha  | +1     | 1,000.00 | L1   |
 * | L2  | 2023-06-10 | Beta   | +2     | 3,000.00 | L2   |
 * | L3  | 2024-03-10 | Gamma  | +1     | 2,500.00 | L3   |
 * | S24 | 2024-06-10 | Alpha  | −0.5   | 1,500.00 | sale |
 * | G   | 2024-09-10 | Gamma  | +1     | none     | —    |
 * | S25 | 2025-02-01 | Gamma  | −1     | 3,000.00 | sale |
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addWallet } from '../../src/engine/wallets.js';
import { importFile } from '../../src/engine/imports.js';
import { createKey, type Access } from '../../src/engine/keys.js';
import { listTransactions } from '../../src/engine/transactions.js';

export const LOTS_WS = 'ws_lots';
const OUTSIDE = `0x${'9'.repeat(40)}`;

export interface LotsLedger {
  dir: string;
  path: string;
  ws: string;
  wallets: { alpha: string; beta: string; gamma: string };
  /** Lot ids (the acquiring rows) and the sales. */
  ids: { l1: string; l2: string; l3: string; s24: string; g: string; s25: string };
  key: (access?: Access) => string;
}

interface Row {
  name: keyof LotsLedger['ids'];
  wallet: keyof LotsLedger['wallets'];
  timestamp: string;
  amount: string;
  direction: 'inflow' | 'outflow';
  fiat: number | null;
}

const ROWS: Row[] = [
  { name: 'l1', wallet: 'alpha', timestamp: '2023-01-10T12:00:00Z', amount: '1', direction: 'inflow', fiat: 1000 },
  { name: 'l2', wallet: 'beta', timestamp: '2023-06-10T12:00:00Z', amount: '2', direction: 'inflow', fiat: 3000 },
  { name: 'l3', wallet: 'gamma', timestamp: '2024-03-10T12:00:00Z', amount: '1', direction: 'inflow', fiat: 2500 },
  { name: 's24', wallet: 'alpha', timestamp: '2024-06-10T12:00:00Z', amount: '0.5', direction: 'outflow', fiat: 1500 },
  { name: 'g', wallet: 'gamma', timestamp: '2024-09-10T12:00:00Z', amount: '1', direction: 'inflow', fiat: null },
  { name: 's25', wallet: 'gamma', timestamp: '2025-02-01T12:00:00Z', amount: '1', direction: 'outflow', fiat: 3000 },
];

export function lotsLedger(): LotsLedger {
  const dir = mkdtempSync(join(tmpdir(), 'txa-lots-'));
  const path = join(dir, 'ledger.db');
  const engine = Engine.open(path);
  try {
    createWorkspace(engine, { id: LOTS_WS, name: 'Lots', tier: 'pro' });
    const add = (label: string, chain: string, digit: string) => addWallet(engine, LOTS_WS, { address: `0x${digit.repeat(40)}`, chain, label }).id;
    const wallets = { alpha: add('Alpha', 'ethereum', 'a'), beta: add('Beta', 'ethereum', 'b'), gamma: add('Gamma', 'arbitrum', 'c') };
    const address = { alpha: `0x${'a'.repeat(40)}`, beta: `0x${'b'.repeat(40)}`, gamma: `0x${'c'.repeat(40)}` };
    const ids = {} as LotsLedger['ids'];
    ROWS.forEach((r, i) => {
      const hash = `0x${String(i + 1).padStart(64, '0')}`;
      const row = {
        tx_hash: hash,
        timestamp: r.timestamp,
        amount: r.amount,
        token: { symbol: 'ETH', address: null, decimals: 18 },
        direction: r.direction,
        from_address: r.direction === 'inflow' ? OUTSIDE : address[r.wallet],
        to_address: r.direction === 'inflow' ? address[r.wallet] : OUTSIDE,
        fiat_value: r.fiat,
      };
      const file = join(dir, `${r.name}.ndjson`);
      writeFileSync(file, `${JSON.stringify(row)}\n`);
      importFile(engine, LOTS_WS, file, { walletId: wallets[r.wallet] });
    });
    // The rows in time order are the table's.
    const page = listTransactions(engine, LOTS_WS, { sort: 'timestamp_asc', limit: '100' });
    ROWS.forEach((r, i) => {
      ids[r.name] = page.data[i]!.id;
    });
    return { dir, path, ws: LOTS_WS, wallets, ids, key: (access = 'full') => keyOf(path, access) };
  } finally {
    engine.close();
  }
}

function keyOf(path: string, access: Access): string {
  const engine = Engine.open(path);
  try {
    return createKey(engine, LOTS_WS, { access }).key;
  } finally {
    engine.close();
  }
}

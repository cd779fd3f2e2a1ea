/**
 * A bulk import of an exchange file (engine/imports.ts bulkSettle): with one exchange account,
 * its rows are read back for matching only when they carry a network hash; the withdrawal whose
 * hash a wallet's row has is still paired with it, as when every row was read back, and with a
 * second exchange account (where every value row may pair) all rows are read as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { createWallet, insertNewWallet } from '../../src/engine/wallets.js';
import { importFile, importRecords } from '../../src/engine/imports.js';

/** Above the rows from which a streamed import into a small ledger is a bulk one (10,000). */
const LINES = 12_000;
const HASH = `0x${'5'.repeat(64)}`;
const T0 = Date.parse('2024-05-01T00:00:00Z') / 1000;

let engine: Engine;
let ws: string;
let dir: string;
let exchange: string;

beforeEach(() => {
  ({ engine, ws, dir } = tempEngine('enterprise'));
  const main = engine.write(() => insertNewWallet(engine, ws, { address: `0x${'a'.repeat(40)}`, chain: 'ethereum', label: 'Main' }).id);
  exchange = createWallet(engine, ws, { kind: 'exchange', exchange: 'other', label: 'Desk' }).id;
  // The wallet's side of the withdrawal, stored before the exchange file.
  importRecords(
    engine,
    ws,
    [
      {
        line: 1,
        tx_hash: HASH,
        from_address: `0x${'e'.repeat(40)}`,
        to_address: `0x${'a'.repeat(40)}`,
        token: { symbol: 'ETH', address: null, decimals: 18 },
        amount: '1',
        fiat_value: '3000',
        direction: 'inflow',
        type: 'transfer',
        timestamp: T0 + 12 * 3600 + 600,
        notes: null,
      },
    ],
    { walletId: main, format: 'json' },
  );
});
afterEach(() => engine.close());

/** LINES exchange rows: deposits without hash, and at line 6,001 the withdrawal of HASH. */
function exchangeFile(): string {
  const path = join(dir, 'desk.csv');
  const lines = ['date,type,asset,quantity,fiat_currency,fiat_amount,fee_asset,fee_quantity,trade_id,tx_hash,note'];
  for (let i = 0; i < LINES; i++) {
    const at = new Date((T0 + i * 7) * 1000).toISOString().replace('.000', '');
    lines.push(i === 6000 ? `2024-05-01T12:00:00Z,withdrawal,ETH,1,,,,,,${HASH},to Main` : `${at},deposit,USDC,${i + 1},,,,,,,`);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const pairedHashes = () => engine.db.prepare('SELECT tx_hash, count(*) AS n FROM transactions WHERE transfer_id IS NOT NULL GROUP BY tx_hash').all();

describe('a bulk exchange import matches the rows of its network hashes', () => {
  it('with one exchange account: the withdrawal pairs with the wallet row, no other row is touched', () => {
    const summary = importFile(engine, ws, exchangeFile(), { walletId: exchange });
    expect(summary.imported).toBe(LINES);
    expect(summary.transfers_matched).toBe(2);
    expect(pairedHashes()).toEqual([{ tx_hash: HASH, n: 2 }]);
  });

  it('with a second exchange account: the same pair (every row read back)', () => {
    createWallet(engine, ws, { kind: 'exchange', exchange: 'kraken', label: 'Kraken' });
    const summary = importFile(engine, ws, exchangeFile(), { walletId: exchange });
    expect(summary.transfers_matched).toBe(2);
    expect(pairedHashes()).toEqual([{ tx_hash: HASH, n: 2 }]);
  });
});

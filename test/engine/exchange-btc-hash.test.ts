/**
 * A Bitcoin withdrawal from an exchange account is matched to the Bitcoin wallet's inflow by its
 * txid (64 hex digits, no `0x`; docs/accounting.md "Exchange accounts"), as an EVM one is by its
 * hash: at import, whatever the case the exchange's file writes it in (and kept in that case, so
 * a re-import finds its rows), and by `transfers match --auto` over the whole ledger. A
 * 64-character reference that is not hex pairs with nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { createWallet, insertNewWallet } from '../../src/engine/wallets.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFile, importRecords } from '../../src/engine/imports.js';
import { autoMatch } from '../../src/engine/transfers.js';
import type { ImportRecord } from '../../src/importers/types.js';

const { engine, ws } = tempEngine('enterprise');
afterAll(() => engine.close());

const T0 = Date.parse('2024-05-01T00:00:00Z') / 1000;
const ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const txid = (i: number) => `${'ab'.repeat(31)}${i.toString(16).padStart(2, '0')}`;
const iso = (at: number) => new Date(at * 1000).toISOString().replace('.000', '');
const arrival = (i: number, h: string, at: number, amount: string): ImportRecord => ({
  line: i,
  tx_hash: h,
  from_address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
  to_address: ADDRESS,
  token: { symbol: 'BTC', address: null, decimals: 8 },
  amount,
  fiat_value: '60000',
  direction: 'inflow',
  type: 'transfer',
  timestamp: at,
  notes: null,
});

describe('exchange withdrawals to a Bitcoin wallet, by txid', () => {
  const legs = () =>
    engine.db.prepare('SELECT lower(tx_hash) AS tx_hash, count(*) AS n FROM transactions WHERE transfer_id IS NOT NULL GROUP BY 1 ORDER BY 1').all();

  it('links the withdrawal and the arrival at import, and again by transfers match --auto', () => {
    const wallet = engine.write(() => insertNewWallet(engine, ws, { address: ADDRESS, chain: 'bitcoin', label: 'Cold' }).id);
    const exchange = createWallet(engine, ws, { kind: 'exchange', exchange: 'kraken', label: 'Kraken' }).id;
    // The exchange names txid 1 in upper case; line 3's reference is 64 characters but no hex.
    const notHex = 'z'.repeat(64);
    const file = join(mkdtempSync(join(tmpdir(), 'txa-btc-hash-')), 'kraken.csv');
    writeFileSync(
      file,
      [
        'date,type,asset,quantity,fiat_currency,fiat_amount,fee_asset,fee_quantity,trade_id,tx_hash,note',
        `${iso(T0 - 86400)},buy,BTC,1,USD,60000.00,,,T-1,,`,
        `${iso(T0)},withdrawal,BTC,0.5,,,BTC,0.0001,,${txid(1).toUpperCase()},to my wallet`,
        `${iso(T0 + 3600)},withdrawal,BTC,0.25,,,,,,${txid(2)},`,
        `${iso(T0 + 7200)},withdrawal,BTC,0.1,,,,,,${notHex},`,
      ].join('\n'),
    );
    importFile(engine, ws, file, { walletId: exchange, format: 'exchange-csv' });
    importRecords(engine, ws, [arrival(1, txid(1), T0 + 600, '0.5'), arrival(2, txid(2), T0 + 4200, '0.25'), arrival(3, notHex, T0 + 7800, '0.1')], {
      walletId: wallet,
      format: 'json',
    });
    const expected = [
      { tx_hash: txid(1), n: 2 },
      { tx_hash: txid(2), n: 2 },
    ];
    expect(legs()).toEqual(expected);
    expect(engine.db.prepare('SELECT DISTINCT kind FROM transfers WHERE workspace_id = ?').pluck().all(ws)).toEqual(['exchange']);
    // The file's txid is kept as it writes it (the row's id follows from it): the same file again adds nothing.
    const again = importFile(engine, ws, file, { walletId: exchange, format: 'exchange-csv' });
    expect([again.imported, again.duplicates]).toEqual([0, 5]);
    engine.write(() => {
      engine.db.exec('UPDATE transactions SET transfer_id = NULL; DELETE FROM transfers');
      expect(autoMatch(engine, ws)).toBe(4);
    });
    expect(legs()).toEqual(expected);
  });
});

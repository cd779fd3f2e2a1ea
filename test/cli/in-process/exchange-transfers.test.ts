/**
 * Exchange ↔ chain transfers (docs/accounting.md "Exchange accounts"), the worked examples, each
 * run as a user runs it: the exchange's file and the wallet's rows imported, the transfer matched
 * by hash or proposed and confirmed with `txa transfers match`, the tax report exported as JSON.
 * The figures are the document's, worked out by hand there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as create } from '../../../src/cli/commands/export/create.js';
import { run as importRun } from '../../../src/cli/commands/import/import.js';
import * as list from '../../../src/cli/commands/transfers/list.js';
import * as match from '../../../src/cli/commands/transfers/match.js';
import type { Engine } from '../../../src/engine/engine.js';
import { addWallet, createWallet } from '../../../src/engine/wallets.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

const WALLET = `0x${'5'.repeat(40)}`;
const STRANGER = `0x${'6'.repeat(40)}`;
const EXCHANGE_CSV_HEADER = 'date,type,asset,quantity,fiat_currency,fiat_amount,fee_asset,fee_quantity,trade_id,tx_hash,note\n';
const hash = (n: number) => `0x${String(n).repeat(64).slice(0, 64)}`;

/** A ledger with an exchange account and an address wallet; the exchange's file and the wallet's rows imported through `txa import`. */
async function ledger(exchange: { name: string; file: string; text: string }, walletRows: object[]) {
  let exchangeId = '';
  let walletId = '';
  const l = tempLedger((engine: Engine, ws: string) => {
    exchangeId = createWallet(engine, ws, { kind: 'exchange', exchange: exchange.name, label: 'Exchange' }).id;
    walletId = addWallet(engine, ws, { address: WALLET, chain: 'ethereum', label: 'Wallet' }).id;
  });
  const globals = { db: l.db, workspace: l.workspace, json: true };
  const exchangeFile = join(l.dir, exchange.file);
  writeFileSync(exchangeFile, exchange.text);
  const rowsFile = join(l.dir, 'wallet.ndjson');
  writeFileSync(rowsFile, walletRows.map((r) => JSON.stringify(r)).join('\n'));
  const a = await runInProcess('txa import', importRun, { file: exchangeFile, walletId: exchangeId, format: 'auto' }, globals);
  expect([a.exitCode, a.stderr]).toEqual([0, '']);
  const b = await runInProcess('txa import', importRun, { file: rowsFile, walletId, format: 'auto' }, globals);
  expect([b.exitCode, b.stderr]).toEqual([0, '']);
  return { l, globals, exchangeId, walletId, imported: [JSON.parse(a.stdout).data, JSON.parse(b.stdout).data] };
}

/** The tax report's lots as [date_acquired, date_sold, quantity, proceeds, cost_basis, gain_loss, wallet_label]. */
async function taxLots(l: { dir: string }, globals: object): Promise<unknown[][]> {
  const out = join(l.dir, `tax-${Math.random().toString(36).slice(2)}.json`);
  const r = await runInProcess('txa export create', create, { format: 'json', reportType: 'tax', basisScope: 'wallet', out }, globals);
  expect([r.exitCode, r.stderr]).toEqual([0, '']);
  const doc = JSON.parse(readFileSync(out, 'utf8'));
  return doc.lots.map((x: Record<string, unknown>) => [x.date_acquired, x.date_sold, x.quantity, x.proceeds, x.cost_basis, x.gain_loss, x.wallet_label]);
}

const inflow = (at: string, amount: string, fiat: number, tx: string, extra: object = {}) => ({
  tx_hash: tx,
  timestamp: at,
  amount,
  token: { symbol: 'ETH', address: null, decimals: 18 },
  direction: 'inflow',
  from_address: STRANGER,
  to_address: WALLET,
  fiat_value: fiat,
  ...extra,
});
const outflow = (at: string, amount: string, fiat: number, tx: string, extra: object = {}) => ({
  ...inflow(at, amount, fiat, tx),
  direction: 'outflow',
  from_address: WALLET,
  to_address: STRANGER,
  ...extra,
});

describe('exchange ↔ chain transfers', () => {
  it('Example 1: bought on the exchange for $1,500, withdrawn (same network hash: matched), sold from the wallet at $3,100: gain 1,600.00', async () => {
    const { l, globals, imported } = await ledger(
      {
        name: 'coinbase',
        file: 'exchange.csv',
        text: `${EXCHANGE_CSV_HEADER}2024-01-02T10:00:00Z,buy,ETH,1,USD,1500.00,,,CB-1,,\n2024-01-05T09:00:00Z,withdrawal,ETH,1,,,,,,${hash(1)},to my wallet\n`,
      },
      [inflow('2024-01-05T09:04:00Z', '1', 3000, hash(1)), outflow('2024-02-01T12:00:00Z', '1', 3100, hash(2), { type: 'swap' })],
    );
    // The wallet's import matched its inflow with the exchange's withdrawal by their hash.
    expect(imported[1].transfers_matched).toBe(2);
    const matched = await runInProcess('txa transfers list', list.run, { status: 'matched' }, globals);
    const [t] = JSON.parse(matched.stdout).data;
    expect([t.kind, t.matched_by, t.legs.map((x: { chain: string | null; direction: string }) => [x.chain, x.direction])]).toEqual([
      'exchange',
      'auto',
      [
        [null, 'outflow'],
        ['ethereum', 'inflow'],
      ],
    ]);
    // The lot keeps its date and cost: 3,100.00 − 1,500.00 = 1,600.00 (not 3,100.00 − 3,000.00 = 100.00).
    expect(await taxLots(l, globals)).toEqual([['2024-01-02', '2024-02-01', '1', 3100, 1500, 1600, 'Wallet']]);
  });

  it('Example 2: a withdrawal without a hash is proposed (same asset, within 24 h, within 1 % plus fee) and confirmed by hand', async () => {
    const coinbase =
      'ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n' +
      'cb-1,2024-01-02 10:00:00 UTC,Buy,ETH,1,USD,"$1,490.00","$1,490.00","$1,500.00",$10.00,Bought 1 ETH for 1500 USD\n' +
      `cb-2,2024-01-05 15:00:00 UTC,Send,ETH,-1,USD,"$3,000.00","$3,000.00","$3,000.00",$0.00,Sent 1 ETH to ${WALLET}\n`;
    const { l, globals, imported } = await ledger({ name: 'coinbase', file: 'coinbase.csv', text: coinbase }, [
      // 0.9995 ETH arrives 20 minutes later: 0.05 % short (Coinbase took the network fee from it).
      inflow('2024-01-05T15:20:00Z', '0.9995', 2998.5, hash(3)),
      outflow('2024-02-01T12:00:00Z', '0.9995', 3098.45, hash(4), { type: 'swap' }),
    ]);
    expect(imported[1].transfers_matched).toBe(0);
    const proposed = await runInProcess('txa transfers list', list.run, { status: 'candidate' }, globals);
    const [c] = JSON.parse(proposed.stdout).data;
    expect([c.kind, c.status, c.legs.map((x: { amount: string }) => x.amount)]).toEqual(['exchange', 'candidate', ['1', '0.9995']]);
    const confirmed = await runInProcess('txa transfers match', match.run, { txId: c.legs[0].id, counterpartId: c.legs[1].id }, globals);
    expect(JSON.parse(confirmed.stdout).data).toMatchObject({ kind: 'exchange', matched_by: 'user' });
    // The 0.9995 ETH sold keep the purchase's date and cost: 1,500.00 × 0.9995 = 1,499.25; 3,098.45 − 1,499.25 = 1,599.20.
    expect(await taxLots(l, globals)).toEqual([
      // 1,500.00 × 0.0005 = 0.75 of cost, disposed of at the withdrawal without proceeds (the Send has no value).
      ['2024-01-02', '2024-01-05', '0.0005', null, 0.75, null, 'Exchange'],
      ['2024-01-02', '2024-02-01', '0.9995', 3098.45, 1499.25, 1599.2, 'Wallet'],
    ]);
  });

  it('Example 3: a deposit back to the exchange (matched by hash) and a sale there: the wallet’s lot moves with its cost', async () => {
    const { l, globals, imported } = await ledger(
      {
        name: 'kraken',
        file: 'kraken.csv',
        text: `${EXCHANGE_CSV_HEADER}2024-03-01T08:30:00Z,deposit,ETH,1,,,,,,${hash(5)},from my wallet\n2024-03-05T10:00:00Z,sell,ETH,1,USD,3590.00,,,K-1,,\n`,
      },
      [
        inflow('2024-01-10T12:00:00Z', '1.001', 2502.5, hash(6)),
        outflow('2024-03-01T08:00:00Z', '1', 3400, hash(5)),
        outflow('2024-03-01T08:00:00Z', '0.001', 3.4, hash(5), { type: 'fee', to_address: '' }),
      ],
    );
    expect(imported[1].transfers_matched).toBe(2);
    expect(await taxLots(l, globals)).toEqual([
      // The network fee: 0.001 ETH of the lot (2,502.50 / 1.001 = 2,500.00 per ETH: cost 2.50), proceeds 3.40: gain 0.90.
      ['2024-01-10', '2024-03-01', '0.001', 3.4, 2.5, 0.9, 'Wallet'],
      // The sale on the exchange: proceeds after fees 3,590.00 − cost 2,500.00 (moved with the deposit) = 1,090.00.
      ['2024-01-10', '2024-03-05', '1', 3590, 2500, 1090, 'Exchange'],
    ]);
  });
});

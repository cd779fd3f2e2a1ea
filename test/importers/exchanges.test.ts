/**
 * The exchange files (docs/import.md "Exchange files"): each fixture of fixtures/import/ imported
 * into an exchange wallet of a real ledger. Every expected row was worked out by hand from the
 * fixture (the comments show the arithmetic); values are cents of the workspace's USD.
 */
import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { importLedger } from '../helpers/import-ledger.js';
import { txaErrorOf } from '../helpers/errors.js';
import { createWallet } from '../../src/engine/wallets.js';
import { upsertRate } from '../../src/store/rates.js';
import { importsService } from '../../src/local/imports.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');
const fixture = (name: string) => join(FIXTURES, name);

const ctx = importLedger();
const exchange = (name: string) => createWallet(ctx.engine, ctx.ws, { kind: 'exchange', exchange: name, label: name }).id;
/** [ts, type, direction, symbol, amount, fiat cents, tags] of a wallet's rows, in time order. */
const ledger = (walletId: string) =>
  ctx.rows(walletId).map((r) => {
    const tags = ctx.engine.db
      .prepare(
        'SELECT g.name FROM transaction_tags x JOIN tags g ON g.id = x.tag_id WHERE x.transaction_id = (SELECT id FROM transactions WHERE wallet_id = ? AND tx_hash = ? AND transfer_key = ?)',
      )
      .pluck()
      .all(walletId, r.tx_hash, (r as unknown as { transfer_key: string }).transfer_key) as string[];
    return [r.ts, r.type, r.direction, r.token_symbol, r.amount, r.fiat_cents, tags.join(';')];
  });
const rate = (currency: string, date: string, value: string) => upsertRate(ctx.engine.db, ctx.ws, { date, currency, rate: value });
const WITHDRAWAL_HASH = `0x${createHash('sha256').update('txa-fixture:gemini-withdrawal').digest('hex')}`;
const ts = (iso: string) => Date.parse(iso) / 1000;
const temp = (name: string, text: string) => {
  const path = join(ctx.dir, name);
  writeFileSync(path, text);
  return path;
};

describe('coinbase', () => {
  it('2024 layout: preamble, ID column, Price Currency, $ amounts, signed quantities', () => {
    const w = exchange('coinbase');
    // 10 rows: 2 fiat-only (lines 5, 14); the Advanced Trade Buy in USDC gives 3 rows, the Convert 2.
    expect(ctx.importFile(fixture('coinbase-2024.csv'), { walletId: w })).toMatchObject({
      format: 'coinbase',
      imported: 1 + 3 + 1 + 2 + 1 + 1 + 1 + 1,
      skipped: 2,
    });
    expect(ledger(w)).toEqual([
      // A purchase costs what was paid including the fee: Total $1,500.00.
      [ts('2024-01-02T10:00:00Z'), 'swap', 'inflow', 'ETH', '1', 150000, ''],
      // Bought 10 SOL for 1004 USDC at 100 USDC/SOL: the legs are 10 × 100 = 1000 USDC, the fee 1004 − 1000 = 4 USDC; legs at the Subtotal $1,000.00, fee row without a value.
      [ts('2024-01-03T11:00:00Z'), 'fee', 'outflow', 'USDC', '4', null, ''],
      [ts('2024-01-03T11:00:00Z'), 'swap', 'inflow', 'SOL', '10', 100000, ''],
      [ts('2024-01-03T11:00:00Z'), 'swap', 'outflow', 'USDC', '1000', 100000, ''],
      // A sale for USD (Advanced Trade): proceeds after the fee, Total $598.80 (= 600.00 − 1.20).
      [ts('2024-01-04T12:00:00Z'), 'swap', 'outflow', 'ETH', '0.2', 59880, ''],
      // Converted 0.1 ETH to 300.5 USDC: two rows sharing the row's ID, both at Total $301.00.
      [ts('2024-01-05T13:00:00Z'), 'swap', 'outflow', 'ETH', '0.1', 30100, ''],
      [ts('2024-01-05T13:00:00Z'), 'swap', 'inflow', 'USDC', '300.5', 30100, ''],
      [ts('2024-01-06T00:00:00Z'), 'transfer', 'inflow', 'ETH', '0.001', 300, 'Staking'],
      [ts('2024-01-07T00:00:00Z'), 'transfer', 'inflow', 'LINK', '0.5', 750, 'Rewards'],
      // Send and Receive move coins: no value of the file's (a withdrawal is no sale).
      [ts('2024-01-08T15:00:00Z'), 'transfer', 'outflow', 'ETH', '0.5', null, ''],
      [ts('2024-01-09T16:00:00Z'), 'transfer', 'inflow', 'ETH', '0.3', null, ''],
    ]);
    // The Convert's two rows share the exchange's row id as their hash.
    expect(ctx.rows(w, "tx_hash = '65f0c0de0000000000000005'").length).toBe(2);
    // Every row: no chain of its own, no addresses; the store's internal chain value.
    expect(ctx.rows(w, "chain <> 'exchange' OR from_address <> '' OR to_address <> ''")).toEqual([]);
    // Re-import adds nothing (identity: the ID column).
    expect(ctx.importFile(fixture('coinbase-2024.csv'), { walletId: w })).toMatchObject({ imported: 0, duplicates: 11 });
  });

  it('2022 layout: the long preamble, Spot Price Currency, values in EUR converted with the ledger rates', () => {
    const w = exchange('coinbase');
    rate('EUR', '2022-03-01', '0.9');
    rate('EUR', '2022-03-05', '0.92');
    rate('EUR', '2022-04-01', '0.9');
    expect(ctx.importFile(fixture('coinbase-2022.csv'), { walletId: w })).toMatchObject({ imported: 3, skipped: 0 });
    expect(ledger(w)).toEqual([
      // €1,262.50 / 0.9 EUR per USD = $1,402.777… → 1402.78
      [ts('2022-03-01T10:00:00Z'), 'swap', 'inflow', 'ETH', '0.5', 140278, ''],
      // €514.80 / 0.92 = $559.565… → 559.57
      [ts('2022-03-05T12:00:00Z'), 'swap', 'outflow', 'ETH', '0.2', 55957, ''],
      // €2.50 / 0.9 = $2.777… → 2.78
      [ts('2022-04-01T00:00:00Z'), 'transfer', 'inflow', 'XLM', '10', 278, 'Rewards'],
    ]);
  });

  it('a value in a currency without a rate that day fails naming the day, nothing imported', () => {
    const w = exchange('coinbase');
    rate('EUR', '2022-03-01', '0.9');
    const err = txaErrorOf(() => ctx.importFile(fixture('coinbase-2022.csv'), { walletId: w }));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.extra?.errors).toEqual([
      {
        line: 10,
        field: 'fiat_currency',
        reason:
          'no EUR rate on 2022-03-05 to convert the value to USD; fetch it (txa rates fill --currency EUR) or add it (txa rates import FILE) and import again',
      },
      {
        line: 11,
        field: 'fiat_currency',
        reason:
          'no EUR rate on 2022-04-01 to convert the value to USD; fetch it (txa rates fill --currency EUR) or add it (txa rates import FILE) and import again',
      },
    ]);
    expect(ctx.count(w)).toBe(0);
  });

  it('2021 layout (Total (inclusive of fees), Fees) and 2020 layout (USD in the header)', () => {
    const w = exchange('coinbase');
    expect(ctx.importFile(fixture('coinbase-2021.csv'), { walletId: w })).toMatchObject({ imported: 4 });
    expect(ctx.importFile(fixture('coinbase-2020.csv'), { walletId: w })).toMatchObject({ imported: 3 });
    expect(ledger(w)).toEqual([
      [ts('2020-06-01T14:00:00Z'), 'swap', 'inflow', 'BTC', '0.1', 96476, ''],
      [ts('2020-07-01T14:00:00Z'), 'transfer', 'inflow', 'COMP', '0.05', 1000, 'Rewards'],
      [ts('2020-08-01T14:00:00Z'), 'transfer', 'outflow', 'BTC', '0.05', null, ''],
      [ts('2021-05-01T08:00:00Z'), 'swap', 'inflow', 'ETH', '0.25', 73500, ''],
      [ts('2021-05-02T09:00:00Z'), 'transfer', 'inflow', 'GRT', '4', 600, 'Rewards'],
      // A Receive whose notes say Coinbase Rewards is a reward.
      [ts('2021-05-03T10:00:00Z'), 'transfer', 'inflow', 'DAI', '50', 5000, 'Rewards'],
      [ts('2021-05-04T11:00:00Z'), 'transfer', 'inflow', 'USDC', '0.42', 42, 'Interest'],
    ]);
  });

  it('an unknown transaction type is a bad row naming it; nothing is imported', () => {
    const w = exchange('coinbase');
    const path = temp(
      'cb.csv',
      'Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n' +
        '2023-01-01T00:00:00Z,Buy,ETH,1,USD,1000,1000,1010,10,Bought 1 ETH for 1010 USD\n' +
        '2023-01-02T00:00:00Z,Mystery Payout,ETH,1,USD,1000,1000,1000,0,\n' +
        '2023-01-03T00:00:00Z,Buy,ETH,1,USD,1000,1000,ten,10,\n',
    );
    const err = txaErrorOf(() => ctx.importFile(path, { walletId: w }));
    expect(err.extra?.errors).toEqual([
      { line: 3, field: 'Transaction Type', reason: "unknown Coinbase transaction type 'Mystery Payout'" },
      { line: 4, field: 'Total (inclusive of fees and/or spread)', reason: "not a number: 'ten'" },
    ]);
    expect(ctx.count(w)).toBe(0);
  });
});

describe('kraken', () => {
  it('ledgers: trades as two rows of one refid, XXBT/XETH/ZUSD/ETH2.S names, staking, deposits and withdrawals', () => {
    const w = exchange('kraken');
    rate('EUR', '2023-02-01', '0.95');
    // Skipped: the ZUSD deposit (fiat), the two moves into staking, the pending deposit without txid.
    expect(ctx.importFile(fixture('kraken-ledgers.csv'), { walletId: w })).toMatchObject({ format: 'kraken', imported: 10, skipped: 4 });
    expect(ledger(w)).toEqual([
      // A buy: 1500.00 USD + the 3.90 USD fee on the fiat leg = 1503.90.
      [ts('2023-01-03T10:00:00Z'), 'swap', 'inflow', 'ETH', '1', 150390, ''],
      // ETH for BTC: two rows sharing the refid; BTC's fee its own row.
      [ts('2023-01-04T11:00:00Z'), 'fee', 'outflow', 'BTC', '0.00007', null, ''],
      [ts('2023-01-04T11:00:00Z'), 'swap', 'inflow', 'BTC', '0.035', null, ''],
      [ts('2023-01-04T11:00:00Z'), 'swap', 'outflow', 'ETH', '0.5', null, ''],
      // ETH2.S is ETH (staked at Kraken).
      [ts('2023-01-12T00:00:00Z'), 'transfer', 'inflow', 'ETH', '0.0004', null, 'Staking'],
      [ts('2023-01-20T15:00:00Z'), 'fee', 'outflow', 'ETH', '0.0035', null, ''],
      [ts('2023-01-20T15:00:00Z'), 'transfer', 'outflow', 'ETH', '0.25', null, ''],
      [ts('2023-01-25T08:30:00Z'), 'transfer', 'inflow', 'BTC', '0.01', null, ''],
      // A sale for EUR: 210.00 − 0.55 fee = 209.45 EUR; / 0.95 = 220.473… → 220.47 USD.
      [ts('2023-02-01T12:00:00Z'), 'swap', 'outflow', 'BTC', '0.01', 22047, ''],
      // An instant buy (spend + receive): 100.00 + 1.50 = 101.50 USD.
      [ts('2023-02-02T12:00:00Z'), 'swap', 'inflow', 'USDC', '98.5', 10150, ''],
    ]);
    expect(ctx.importFile(fixture('kraken-ledgers.csv'), { walletId: w })).toMatchObject({ imported: 0, duplicates: 10 });
  });

  it('the later layout with subclass and wallet: earn allocations move within the account, rewards are income', () => {
    const w = exchange('kraken');
    expect(ctx.importFile(fixture('kraken-ledgers-2024.csv'), { walletId: w })).toMatchObject({ imported: 2, skipped: 2 });
    expect(ledger(w)).toEqual([
      [ts('2024-02-01T10:00:00Z'), 'transfer', 'inflow', 'DOT', '100', null, ''],
      [ts('2024-02-08T00:00:00Z'), 'transfer', 'inflow', 'DOT', '0.25', null, 'Rewards'],
    ]);
  });

  it('an unknown ledger type is a bad row naming it', () => {
    const w = exchange('kraken');
    const path = temp(
      'k.csv',
      '"txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"\n' +
        '"L1","R1","2023-01-01 00:00:00","margin","","currency","XXBT",-1,0,0\n' +
        '"L2","R2","2023-01-01 00:00:00","deposit","","currency","XXBT",abc,0,0\n',
    );
    expect(txaErrorOf(() => ctx.importFile(path, { walletId: w })).extra?.errors).toEqual([
      { line: 2, field: 'type', reason: "unknown Kraken ledger type 'margin'" },
      { line: 3, field: 'amount', reason: "not a number: 'abc'" },
    ]);
  });
});

describe('binance', () => {
  it('transaction history: one trade over several rows of one second, fees, earn, staking, deposits and withdrawals', () => {
    const w = exchange('binance');
    rate('EUR', '2023-03-03', '0.94');
    // Skipped: the fiat deposit, the two Simple Earn subscription rows.
    expect(ctx.importFile(fixture('binance-history.csv'), { walletId: w })).toMatchObject({ format: 'binance', imported: 15, skipped: 3 });
    expect(ledger(w)).toEqual([
      [ts('2023-03-01T08:00:00Z'), 'transfer', 'inflow', 'USDT', '5000', null, ''],
      // Transaction Spend / Buy / Fee of one second: USDT for ETH, the ETH fee apart.
      [ts('2023-03-01T09:00:00Z'), 'fee', 'outflow', 'ETH', '0.0015', null, ''],
      [ts('2023-03-01T09:00:00Z'), 'swap', 'inflow', 'ETH', '1.5', null, ''],
      [ts('2023-03-01T09:00:00Z'), 'swap', 'outflow', 'USDT', '3000', null, ''],
      // The older Buy / Buy / Fee rows of one trade.
      [ts('2023-03-02T10:00:00Z'), 'fee', 'outflow', 'BNB', '0.0015', null, ''],
      [ts('2023-03-02T10:00:00Z'), 'swap', 'inflow', 'BNB', '2', null, ''],
      [ts('2023-03-02T10:00:00Z'), 'swap', 'outflow', 'USDT', '600', null, ''],
      // BTC for EUR: 500 + 1.50 fee = 501.50 EUR; / 0.94 = 533.510… → 533.51 USD.
      [ts('2023-03-03T12:00:00Z'), 'swap', 'inflow', 'BTC', '0.02', 53351, ''],
      // 1E-8 read exactly.
      [ts('2023-03-04T00:00:00Z'), 'transfer', 'inflow', 'USDT', '0.00000001', null, 'Interest'],
      [ts('2023-03-05T00:00:00Z'), 'transfer', 'inflow', 'BETH', '0.0001', null, 'Staking'],
      [ts('2023-03-06T14:00:00Z'), 'transfer', 'outflow', 'ETH', '1', null, ''],
      // BTC sold for USD: 270 − 0.27 = 269.73.
      [ts('2023-03-07T15:00:00Z'), 'swap', 'outflow', 'BTC', '0.01', 26973, ''],
      [ts('2023-03-08T16:00:00Z'), 'swap', 'inflow', 'BNB', '0.02', null, ''],
      [ts('2023-03-08T16:00:00Z'), 'swap', 'outflow', 'DOGE', '100', null, ''],
      [ts('2023-03-09T00:00:00Z'), 'transfer', 'inflow', 'ARB', '15', null, 'Rewards'],
    ]);
    expect(ctx.importFile(fixture('binance-history.csv'), { walletId: w })).toMatchObject({ imported: 0, duplicates: 15 });
  });

  it('an unknown operation is a bad row naming it, never a guessed direction', () => {
    const w = exchange('binance');
    const path = temp('b.csv', 'User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n1,2023-01-01 00:00:00,Spot,Mystery Op,ETH,1,\n');
    expect(txaErrorOf(() => ctx.importFile(path, { walletId: w })).extra?.errors).toEqual([
      { line: 2, field: 'Operation', reason: "unknown Binance operation 'Mystery Op'" },
    ]);
  });
});

describe('gemini', () => {
  const expected = (hash: string) => [
    // Buy ETHUSD: $3,000.00 + $10.50 fee = $3,010.50.
    [ts('2024-01-05T14:30:15Z'), 'swap', 'inflow', 'ETH', '1.5', 301050, ''],
    // Sell ETHBTC: 0.5 ETH out, 0.025 BTC in, the 0.0000625 BTC fee its own row.
    [ts('2024-01-10T09:15:00Z'), 'fee', 'outflow', 'BTC', '0.0000625', null, ''],
    [ts('2024-01-10T09:15:00Z'), 'swap', 'inflow', 'BTC', '0.025', null, ''],
    [ts('2024-01-10T09:15:00Z'), 'swap', 'outflow', 'ETH', '0.5', null, ''],
    [ts('2024-01-20T00:00:00Z'), 'transfer', 'inflow', 'ETH', '0.002', null, 'Staking'],
    [ts('2024-02-01T16:45:30Z'), 'fee', 'outflow', 'ETH', '0.001', null, ''],
    [ts('2024-02-01T16:45:30Z'), 'transfer', 'outflow', 'ETH', '0.9', null, ''],
    // Sell ETHUSD: $320.00 − $1.12 = $318.88.
    [ts('2024-02-15T11:00:00Z'), 'swap', 'outflow', 'ETH', '0.1', 31888, ''],
    [ts('2024-02-20T00:00:00Z'), 'transfer', 'inflow', 'GUSD', '1.25', null, 'Interest'],
    [ts('2024-03-01T08:00:00Z'), 'transfer', 'inflow', 'ETH', '0.2', null, ''],
    hash,
  ];

  it('CSV: trades of a pair, credits and debits, the withdrawal keeps its network hash, the totals row is skipped', () => {
    const w = exchange('gemini');
    // Skipped: the USD deposit, the totals row.
    expect(ctx.importFile(fixture('gemini-history.csv'), { walletId: w })).toMatchObject({ format: 'gemini', imported: 10, skipped: 2 });
    // The withdrawal's hash is the network's (SHA-256 of txa-fixture:gemini-withdrawal), so it matches the wallet's inflow.
    expect([...ledger(w), ctx.rows(w, "type = 'transfer' AND direction = 'outflow'")[0]!.tx_hash]).toEqual(expected(WITHDRAWAL_HASH));
  });

  it('XLSX: the same rows from the workbook Gemini downloads', async () => {
    const w = exchange('gemini');
    const summary = await importsService(ctx.engine).importFile(ctx.ws, fixture('gemini-history.xlsx'), { walletId: w });
    expect(summary).toMatchObject({ format: 'gemini', imported: 10, skipped: 2 });
    // The workbook holds the same rows (its times without milliseconds: the same seconds).
    expect([...ledger(w), ctx.rows(w, "type = 'transfer' AND direction = 'outflow'")[0]!.tx_hash]).toEqual(expected(WITHDRAWAL_HASH));
    // The CSV of the same rows is a duplicate of every row.
    expect(ctx.importFile(fixture('gemini-history.csv'), { walletId: w })).toMatchObject({ imported: 0, duplicates: 10 });
  });
});

describe('XLSX', () => {
  it('a ZIP that is no workbook is IMPORT_FAILED (file), nothing imported', async () => {
    const w = exchange('gemini');
    const { zipSync, strToU8 } = await import('fflate');
    const path = join(ctx.dir, 'not-a-workbook.xlsx');
    writeFileSync(path, zipSync({ 'hello.txt': strToU8('hello') }));
    const err = await importsService(ctx.engine)
      .importFile(ctx.ws, path, { walletId: w })
      .then(
        () => undefined,
        (e: { code: string; field: string }) => e,
      );
    expect([err?.code, err?.field]).toEqual(['IMPORT_FAILED', 'file']);
    expect(ctx.count(w)).toBe(0);
  });
});

describe('exchange-csv', () => {
  it("txa's own layout: every type, fees in fiat included, fees in coins as rows, trade ids and network hashes", () => {
    const w = exchange('other');
    expect(ctx.importFile(fixture('exchange-csv.csv'), { walletId: w })).toMatchObject({ format: 'exchange-csv', imported: 10, skipped: 0 });
    expect(ledger(w)).toEqual([
      // buy: fiat_amount is what was paid, fees included; the USD fee is in it, no row.
      [ts('2024-05-01T10:00:00Z'), 'swap', 'inflow', 'ETH', '2', 602000, ''],
      [ts('2024-05-02T11:00:00Z'), 'fee', 'outflow', 'USDC', '1.5', null, ''],
      [ts('2024-05-02T11:00:00Z'), 'swap', 'outflow', 'ETH', '0.5', 150000, ''],
      [ts('2024-05-02T11:00:00Z'), 'swap', 'inflow', 'USDC', '1498.5', 150000, ''],
      [ts('2024-05-03T12:00:00Z'), 'transfer', 'inflow', 'ETH', '0.01', 3000, 'Staking'],
      [ts('2024-05-04T13:00:00Z'), 'fee', 'outflow', 'ETH', '0.002', null, ''],
      [ts('2024-05-04T13:00:00Z'), 'transfer', 'outflow', 'ETH', '1', null, ''],
      [ts('2024-05-05T14:00:00Z'), 'swap', 'outflow', 'ETH', '0.4', 119000, ''],
      [ts('2024-05-06T15:00:00Z'), 'transfer', 'inflow', 'USDC', '100', null, ''],
      [ts('2024-05-07T16:00:00Z'), 'fee', 'outflow', 'USDC', '2', null, ''],
    ]);
    expect(ctx.rows(w, "tx_hash = 'T-2'").length).toBe(3);
    expect(ctx.importFile(fixture('exchange-csv.csv'), { walletId: w })).toMatchObject({ imported: 0, duplicates: 10 });
  });

  it('bad rows: an unknown type, a buy without its fiat amount, a fiat asset', () => {
    const w = exchange('other');
    const path = temp(
      'x.csv',
      'date,type,asset,quantity,fiat_currency,fiat_amount,fee_asset,fee_quantity,trade_id,tx_hash,note\n' +
        '2024-01-01,airdrop,ETH,1,,,,,,,\n2024-01-01,buy,ETH,1,,,,,,,\n2024-01-01,deposit,USD,100,,,,,,,\n',
    );
    expect(txaErrorOf(() => ctx.importFile(path, { walletId: w })).extra?.errors).toEqual([
      { line: 2, field: 'type', reason: "must be one of buy, sell, trade_in, trade_out, deposit, withdrawal, income, fee, got 'airdrop'" },
      { line: 3, field: 'fiat_amount', reason: 'a buy needs what was paid' },
      { line: 4, field: 'asset', reason: "'USD' is a fiat currency; a row moves a coin (fiat goes in fiat_currency and fiat_amount)" },
    ]);
  });
});

describe('wallets and formats', () => {
  it('an exchange file into an address wallet, and a chain file into an exchange wallet, are usage errors', () => {
    const address = ctx.wallet('0xd3615f34ba96a642fe0ad91902c6f426b0cc9397', 'ethereum');
    const err = txaErrorOf(() => ctx.importFile(fixture('kraken-ledgers.csv'), { walletId: address }));
    expect([err.code, err.field]).toEqual(['USAGE_ERROR', 'wallet']);
    const w = exchange('kraken');
    const chainFile = txaErrorOf(() => ctx.importFile(fixture('etherscan-normal.csv'), { walletId: w }));
    expect([chainFile.code, chainFile.field]).toEqual(['USAGE_ERROR', 'wallet']);
    expect(ctx.count(w)).toBe(0);
  });

  it('each fixture is detected as its format', async () => {
    const { detectedFormat } = await import('../../src/importers/index.js');
    const { readFileSync } = await import('node:fs');
    for (const [file, format] of [
      ['coinbase-2024.csv', 'coinbase'],
      ['coinbase-2022.csv', 'coinbase'],
      ['coinbase-2021.csv', 'coinbase'],
      ['coinbase-2020.csv', 'coinbase'],
      ['kraken-ledgers.csv', 'kraken'],
      ['kraken-ledgers-2024.csv', 'kraken'],
      ['binance-history.csv', 'binance'],
      ['gemini-history.csv', 'gemini'],
      ['exchange-csv.csv', 'exchange-csv'],
    ]) {
      expect([file, detectedFormat(readFileSync(fixture(file!), 'utf8'))]).toEqual([file, format]);
    }
  });
});

/**
 * Every quirk of the real explorer and tax-tool files (fixtures/import/README.md maps each to a
 * fixture line), imported into a real ledger. The fixtures are synthetic files in the same formats;
 * every expected value here was worked out by hand from the fixture (see the comments).
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importLedger } from '../helpers/import-ledger.js';
import { txaErrorOf } from '../helpers/errors.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');
const fixture = (name: string) => join(FIXTURES, name);

/** The fixtures' wallets (README: addresses are SHA-256 of a label). */
const ETH_WALLET = '0xd3615f34ba96a642fe0ad91902c6f426b0cc9397';
const ARB_CONTRACT = '0xedeb0682b17809b01d35fc285f08449811cff697';
const ALLO_CONTRACT = '0xa77cc49a16ac168392dec78f79ca1b758666b919';
const BSC_WALLET = '0x48e50149d3756692951fbc4382973598f30bd3e6';
const TRACKER_TOKEN = '0x19beb14d42d93759f2d66ceffcdee252dc156333';

const ctx = importLedger();
const { wallet, importFile, rows } = ctx;

/** [ts, type, direction, amount, fiat cents] of every row of a wallet, in time order, fees first. */
const ledger = (walletId: string) => rows(walletId).map((r) => [r.ts, r.type, r.direction, r.amount, r.fiat_cents]);

describe('etherscan normal transactions (etherscan-normal.csv: all quoted, LF, Eth/ETH header case)', () => {
  it('one value row per tx that moved value, a fee row per tx the wallet sent, at the historical price', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    // 9 rows: 7 move value (lines 6, 7 failed with Error(0)); the wallet sent 7 (all but lines 2, 9).
    expect(importFile(fixture('etherscan-normal.csv'), { walletId: w })).toMatchObject({ format: 'etherscan', imported: 7 + 7, duplicates: 0, skipped: 0 });
    expect(ledger(w)).toEqual([
      // Line 2: 0.25 ETH in × $402.10 = 100.525 → 100.52 (half to even). Its TxnFee was the sender's: no fee row.
      [1509012345, 'transfer', 'inflow', '0.25', 10052],
      // Line 3: 18 decimals kept; 12.345678901234567891 × 1500.00 = 18518.5183…; the fee at the day's price too:
      // 0.000882914200000001 × 1500.00 = 1.3243713 → 1.32 (not its TxnFee(USD) 0.9142315, taken at the export day's price).
      [1516380023, 'fee', 'outflow', '0.000882914200000001', 132],
      [1516380023, 'transfer', 'outflow', '12.345678901234567891', 1851852],
      // Line 4: Approve, a zero-value call; line 5: a raw 4-byte selector.
      [1523010203, 'fee', 'outflow', '0.00193117', 77],
      [1523010203, 'approval', 'outflow', '0', 0],
      [1530101010, 'fee', 'outflow', '0.000674193', 15],
      [1530101010, 'contract_call', 'outflow', '0', 0],
      // Lines 6, 7: Error(0) (Out of gas, Reverted) still show a Value_OUT (3.75, 0.1); only the fee was paid.
      [1541122334, 'fee', 'outflow', '0.000189', 4],
      [1556000111, 'fee', 'outflow', '0.00316', 55],
      // Lines 8, 9: Error(1), an inner call failed, the tx went through: 0.3 × 1288.55 = 386.565 → 386.56; 0.05 × 1611.30 = 80.565 → 80.56.
      [1611000222, 'fee', 'outflow', '0.00402', 518],
      [1611000222, 'contract_call', 'outflow', '0.3', 38656],
      [1613450000, 'transfer', 'inflow', '0.05', 8056],
      // Line 10: a decoded swap method; 0.2 × 2716.04 = 543.208.
      [1676543210, 'fee', 'outflow', '0.004187221905318842', 1137],
      [1676543210, 'swap', 'outflow', '0.2', 54321],
    ]);
    expect(new Set(rows(w).map((r) => `${r.token_symbol} ${r.token_address} ${r.token_decimals}`))).toEqual(new Set(['ETH null 18']));
  });

  it('refuses a wallet of another chain than the file, importing nothing', () => {
    const w = wallet(ETH_WALLET, 'bsc');
    const err = txaErrorOf(() => importFile(fixture('etherscan-normal.csv'), { walletId: w }));
    expect([err.code, err.field]).toEqual(['IMPORT_FAILED', 'wallet']);
    expect(rows(w)).toEqual([]);
  });
});

describe('etherscan ERC-20 token transfers (etherscan-erc20.csv)', () => {
  it('reads thousands separators, $-formatted and N/A values, mints, spam names and token identities', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    expect(importFile(fixture('etherscan-erc20.csv'), { walletId: w })).toMatchObject({ imported: 9, skipped: 0 });
    const qrx = '0x4e57e38241b8b934f2f83c6adc3be20b108b9b00';
    const dxp = '0xb93bdca67337ac134eb0a111f767b783c9778e0b';
    expect(rows(w).map((r) => [r.ts, r.type, r.direction, r.amount, r.fiat_cents, r.token_symbol, r.token_address, r.token_decimals])).toEqual([
      [1511400001, 'transfer', 'inflow', '12.5', 3, 'QRX', qrx, 18], // "$0.03"
      [1511900002, 'mint', 'inflow', '640', null, 'DXP', dxp, 18], // from the zero address, "N/A"
      [1515400003, 'transfer', 'inflow', '1204', 118733, 'OSAI', '0x1041f60f2a9f757e01d985356a2860569c6452bb', 18], // "1,204", "$1,187.33"
      [1516000004, 'mint', 'inflow', '2718281828', null, 'claim-reward.example', '0x73da661fb7e6a4fce47927466bb9133770070786', 18],
      // One swap, two rows of one hash; USDC is a known token: its 6 decimals, not 18.
      [1600000005, 'transfer', 'outflow', '2150.25', 215025, 'USDC', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 6],
      [1600000005, 'transfer', 'inflow', '0.604188930251877623', 214891, 'WETH', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', 18],
      [1610000006, 'transfer', 'outflow', '4096.512', 1229, 'QRX', qrx, 18], // "4,096.512", "$12.29"
      // Two inflows of one token in one tx: told apart by the transfer index.
      [1663700007, 'transfer', 'inflow', '0.002358491820377164', null, 'DXP', dxp, 18],
      [1663700007, 'transfer', 'inflow', '0.5', null, 'DXP', dxp, 18],
    ]);
  });

  it('gives several transfers of one hash distinct identities, and a second run adds nothing', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    importFile(fixture('etherscan-erc20.csv'), { walletId: w });
    expect(importFile(fixture('etherscan-erc20.csv'), { walletId: w })).toMatchObject({ imported: 0, duplicates: 9 });
    const keys = ctx.engine.db.prepare('SELECT count(DISTINCT tx_hash) AS h, count(*) AS n FROM transactions WHERE wallet_id = ?').get(w);
    expect(keys).toEqual({ h: 7, n: 9 });
  });
});

describe('arbiscan normal transactions', () => {
  it('raw export (arbiscan-raw.csv): 17 fields under 16 names, CRLF, a contract creation, 18-decimal inflows', () => {
    const w = wallet(ARB_CONTRACT, 'arbitrum');
    // The wallet is the contract: it never sent, so no fees.
    expect(importFile(fixture('arbiscan-raw.csv'), { walletId: w })).toMatchObject({ imported: 5, skipped: 0 });
    expect(ledger(w)).toEqual([
      // Line 2: To is empty; the created contract (ContractAddress) is the receiver.
      [1712700001, 'contract_call', 'inflow', '0', 0],
      // Call Deposit V3 is Across' bridge: 0.000412345678901234 × 3085.40 = 1.2722…; 0.001 × 3061.85 = 3.06185;
      // 0.000250000000000001 × 3019.18 = 0.7547950…; 0.0123456789 × 3100.00 = 38.2716…
      [1713280002, 'bridge', 'inflow', '0.000412345678901234', 127],
      [1713900003, 'bridge', 'inflow', '0.001', 306],
      [1714500004, 'bridge', 'inflow', '0.000250000000000001', 75],
      [1715030005, 'bridge', 'inflow', '0.0123456789', 3827],
    ]);
    expect(rows(w, 'ts = 1712700001')[0]).toMatchObject({ from_address: '0xcce3cb8593eb9930c778c49361f38cbabcd12afc', to_address: ARB_CONTRACT });
  });

  it('Excel re-save (arbiscan-excel.csv): scientific notation, UnixTimestamp over M/D/YYYY H:MM, comma-only rows, failed incoming txs skipped', () => {
    const w = wallet(ALLO_CONTRACT, 'arbitrum');
    const skipped: { line: number; reason: string }[] = [];
    const s = importFile(fixture('arbiscan-excel.csv'), { walletId: w, onSkipped: (r) => skipped.push(r) });
    // 7 real rows; lines 5 and 7 failed (Error(0)) and were sent by others: nothing of them is the wallet's.
    // The three comma-only rows at the end are no rows at all.
    expect(s).toMatchObject({ imported: 5, skipped: 2 });
    expect(skipped.map((r) => r.line)).toEqual([5, 7]);
    expect(skipped[0]!.reason).toContain('failed transaction');
    // Times to the second (UnixTimestamp), not the minute Excel left in DateTime.
    expect(ledger(w)).toEqual([
      [1713831628, 'contract_call', 'inflow', '0', 0],
      [1713900123, 'contract_call', 'inflow', '0.0000827361', 27], // 8.27361E-05 × 3219.74 = 0.26638…
      [1713917777, 'contract_call', 'inflow', '0.00000471826', 2], // 4.71826E-06 × 3219.74 = 0.01519…
      [1714403333, 'contract_call', 'inflow', '0.000418274', 138], // × 3305.12 = 1.38244…
      [1714482317, 'contract_call', 'inflow', '0.02', 6610], // × 3305.12 = 66.1024
    ]);
  });

  it('Excel re-save without UnixTimestamp: DateTime is read month first, in UTC, to the minute', () => {
    const w = wallet(ALLO_CONTRACT, 'arbitrum');
    const path = join(ctx.dir, 'no-unix.csv');
    const lines = readFileSync(fixture('arbiscan-excel.csv'), 'utf8').split('\r\n');
    writeFileSync(
      path,
      lines
        .map((l) =>
          l
            .split(',')
            .filter((_, i) => i !== 2)
            .join(','),
        )
        .join('\r\n'),
    );
    importFile(path, { walletId: w });
    // 4/23/2024 0:20, 4/23/2024 19:22, 4/24/2024 0:16, 4/29/2024 15:08, 4/30/2024 13:05
    expect(rows(w).map((r) => r.ts)).toEqual(
      [
        Date.UTC(2024, 3, 23, 0, 20),
        Date.UTC(2024, 3, 23, 19, 22),
        Date.UTC(2024, 3, 24, 0, 16),
        Date.UTC(2024, 3, 29, 15, 8),
        Date.UTC(2024, 3, 30, 13, 5),
      ].map((ms) => ms / 1000),
    );
  });
});

describe('bscscan token-tracker export (bscscan-token-tracker.csv: one token, every holder)', () => {
  const MIXED_CASE = '0x19BEB14d42D93759f2D66CEFfcDEE252dc156333';
  const named = () => {
    const path = join(ctx.dir, `export-token-${MIXED_CASE}.csv`);
    copyFileSync(fixture('bscscan-token-tracker.csv'), path);
    return path;
  };
  const expected = [
    // Line 2 "2,500" minted to the wallet, line 3 burnt; line 6 "4,000,000" minted.
    [1640995261, 'mint', 'inflow', '2500'],
    [1640999000, 'burn', 'outflow', '2500'],
    [1641100000, 'mint', 'inflow', '4000000'],
    [1641200000, 'transfer', 'outflow', '2000'],
    [1641200300, 'transfer', 'outflow', '1250000'],
    // Lines 11, 12: one Add Liquidity tx, "97,531.20" out and 1E-18 back.
    [1642087600, 'transfer', 'inflow', '0.000000000000000001'],
    [1642087600, 'transfer', 'outflow', '97531.2'],
  ];

  it('takes the token from the file name and skips the rows of other holders', () => {
    const w = wallet(BSC_WALLET, 'bsc');
    const skipped: number[] = [];
    // 12 rows, 7 touch the wallet; lines 4, 5, 9, 10, 13 are other holders' (7-significant-digit and 3E-16, 2E-18 amounts among them).
    expect(importFile(named(), { walletId: w, onSkipped: (r) => skipped.push(r.line) })).toMatchObject({ imported: 7, skipped: 5 });
    expect(skipped).toEqual([4, 5, 9, 10, 13]);
    expect(rows(w).map((r) => [r.ts, r.type, r.direction, r.amount])).toEqual(expected);
    expect(new Set(rows(w).map((r) => `${r.token_symbol} ${r.token_address} ${r.token_decimals} ${r.fiat_cents}`))).toEqual(
      new Set([`0x19be…6333 ${TRACKER_TOKEN} 18 null`]),
    );
  });

  it('reads M/D/YY H:MM month first when UnixTimestamp is gone', () => {
    const w = wallet(BSC_WALLET, 'bsc');
    const path = join(ctx.dir, `no-unix-${TRACKER_TOKEN}.csv`);
    const lines = readFileSync(fixture('bscscan-token-tracker.csv'), 'utf8').split('\r\n');
    // Unquoted up to Quantity, so the first commas split the leading columns.
    writeFileSync(path, lines.map((l) => l.replace(/^([^,]*,[^,]*),[^,]*,/, '$1,')).join('\r\n'));
    importFile(path, { walletId: w });
    // 1/1/22 0:01 … 1/13/22 15:26 (day 13: the month comes first).
    expect(rows(w).map((r) => r.ts)).toEqual(
      [
        Date.UTC(2022, 0, 1, 0, 1),
        Date.UTC(2022, 0, 1, 1, 3),
        Date.UTC(2022, 0, 2, 5, 6),
        Date.UTC(2022, 0, 3, 8, 53),
        Date.UTC(2022, 0, 3, 8, 58),
        Date.UTC(2022, 0, 13, 15, 26),
        Date.UTC(2022, 0, 13, 15, 26),
      ].map((ms) => ms / 1000),
    );
  });

  it('refuses the file when neither its name nor --token-address gives the token, naming the flag', () => {
    const w = wallet(BSC_WALLET, 'bsc');
    const err = txaErrorOf(() => importFile(fixture('bscscan-token-tracker.csv'), { walletId: w }));
    expect([err.code, err.field, err.extra]).toEqual(['IMPORT_FAILED', 'ContractAddress', { missing_columns: ['ContractAddress'] }]);
    expect(err.message).toContain('pass --token-address 0x…');
    expect(err.hint).toContain('--token-address');
    expect(rows(w)).toEqual([]);
  });

  it('takes the token from --token-address; with the file name too, the two must agree', () => {
    const w = wallet(BSC_WALLET, 'bsc');
    expect(importFile(fixture('bscscan-token-tracker.csv'), { walletId: w, tokenAddress: MIXED_CASE })).toMatchObject({ imported: 7, skipped: 5 });
    expect(rows(w).map((r) => [r.ts, r.type, r.direction, r.amount])).toEqual(expected);
    // The same rows as from the file name: a named download adds nothing.
    expect(importFile(named(), { walletId: w, tokenAddress: TRACKER_TOKEN })).toMatchObject({ imported: 0, duplicates: 7 });
    const other = txaErrorOf(() => importFile(named(), { walletId: w, tokenAddress: `0x${'ab'.repeat(20)}` }));
    expect([other.code, other.field]).toEqual(['USAGE_ERROR', 'token-address']);
  });
});

describe('polygonscan column subset (polygonscan-subset.csv: no Txhash, From, To; pandas numbers)', () => {
  const FILE = fixture('polygonscan-subset.csv');

  it('reads the wallet side from Value_IN/Value_OUT and charges fees only to the rows it sent', () => {
    const w = wallet(ETH_WALLET, 'polygon');
    // 9 rows: 7 with a Value_IN (inflows, no fee); lines 2 and 10 have no value: a 0 outflow and a fee each.
    expect(importFile(FILE, { walletId: w })).toMatchObject({ imported: 7 + 2 * 2, skipped: 0 });
    expect(ledger(w)).toEqual([
      // Line 2: "0.0" in, "0" out; the fee at the day's price: 0.4172630581264907 × 0.83 = 0.3463…
      [1707430001, 'fee', 'outflow', '0.4172630581264907', 35],
      [1707430001, 'contract_call', 'outflow', '0', 0],
      [1707860002, 'transfer', 'inflow', '4', 340], // "4.0" × 0.85
      [1707950003, 'transfer', 'inflow', '87.51204918273645', 7789], // × 0.89 = 77.8857…
      [1708460004, 'transfer', 'inflow', '0.0000031415926535', 0], // "3.1415926535e-06"
      // Lines 6-8: one block, lines 6 and 7 identical.
      [1712680006, 'transfer', 'inflow', '0.00001', 0],
      [1712680006, 'transfer', 'inflow', '0.00001', 0],
      [1712680006, 'transfer', 'inflow', '0.00001', 0],
      // Lines 9, 10, the newest day: no Historical $Price, so no value, the fee's neither (not its TxnFee(USD) 0.158…).
      [1713300007, 'transfer', 'inflow', '8', null],
      [1713310008, 'fee', 'outflow', '0.2196041830559214', null],
      [1713310008, 'contract_call', 'outflow', '0', null],
    ]);
    expect(rows(w).every((r) => r.token_symbol === 'POL' && r.token_address === null)).toBe(true);
    expect(rows(w, "type = 'fee'").every((r) => r.from_address === ETH_WALLET && r.to_address === '')).toBe(true);
    expect(rows(w, "direction = 'inflow'").every((r) => r.from_address === '' && r.to_address === ETH_WALLET)).toBe(true);
  });

  it('synthetic hashes: one per row, distinct for identical rows, stable across exports whose prices moved', () => {
    const w = wallet(ETH_WALLET, 'polygon');
    importFile(FILE, { walletId: w });
    const hashes = rows(w).map((r) => r.tx_hash);
    expect(new Set(hashes).size).toBe(9); // a fee shares its row's hash
    expect(new Set(rows(w, 'ts = 1712680006').map((r) => r.tx_hash)).size).toBe(3);
    for (const h of hashes) expect(h).toMatch(/^etherscan:[0-9a-f]{40}$/);
    // A later export: another CurrentValue header, and the newest day's price filled in.
    const later = readFileSync(FILE, 'utf8').replace('CurrentValue @ $0.5218470331/MATIC', 'CurrentValue @ $0.48/MATIC').replace(/,\n/g, ',0.72\n');
    expect(later.match(/,0\.72\n/g)).toHaveLength(2);
    const path = join(ctx.dir, 'polygon-later.csv');
    writeFileSync(path, later);
    expect(importFile(path, { walletId: w })).toMatchObject({ imported: 0, duplicates: 11 });
  });

  it('refuses --token-address: the file moves only the native coin', () => {
    const w = wallet(ETH_WALLET, 'polygon');
    const err = txaErrorOf(() => importFile(FILE, { walletId: w, tokenAddress: `0x${'ab'.repeat(20)}` }));
    expect([err.code, err.field]).toEqual(['USAGE_ERROR', 'token-address']);
  });
});

describe('koinly universal (koinly-universal.csv: CRLF, " UTC" dates, one-sided rows)', () => {
  it('imports each side and the fees; a send and a receive sharing a hash are a swap', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    // 10 rows: 5 sends (each with a fee) + 5 receives; Fee Currency is filled on every row, the amount only on sends.
    expect(importFile(fixture('koinly-universal.csv'), { walletId: w })).toMatchObject({ format: 'koinly', imported: 10 + 5, skipped: 0 });
    const list = rows(w);
    expect(list.map((r) => [r.ts, r.type, r.direction, r.amount, r.token_symbol])).toEqual([
      [Date.UTC(2021, 9, 5, 9, 12, 44) / 1000, 'transfer', 'inflow', '0.35', 'AVAX'],
      // Lines 3, 4: a swap split into a send and a receive of one TxHash.
      [Date.UTC(2021, 9, 5, 9, 20, 3) / 1000, 'fee', 'outflow', '0.0041277', 'AVAX'],
      [Date.UTC(2021, 9, 5, 9, 20, 3) / 1000, 'swap', 'outflow', '0.15', 'AVAX'],
      [Date.UTC(2021, 9, 5, 9, 20, 3) / 1000, 'swap', 'inflow', '3.318204917702', 'KITE'],
      [Date.UTC(2021, 9, 6, 14, 2, 51) / 1000, 'transfer', 'inflow', '12.50718034', 'AVAX'],
      // Line 6: trailing zeros dropped, 12.40200000000 and 0.005218700000.
      [Date.UTC(2021, 9, 6, 14, 5, 37) / 1000, 'fee', 'outflow', '0.0052187', 'AVAX'],
      [Date.UTC(2021, 9, 6, 14, 5, 37) / 1000, 'transfer', 'outflow', '12.402', 'AVAX'],
      // Lines 7, 8: two receives of one tx, and lines 9, 10 two sends with a fee each: transfers,
      // told apart by the per-hash transfer index.
      [Date.UTC(2021, 10, 2, 8, 15, 9) / 1000, 'transfer', 'inflow', '1.5', 'AVAX'],
      [Date.UTC(2021, 10, 2, 8, 15, 9) / 1000, 'transfer', 'inflow', '0.25', 'AVAX'],
      [Date.UTC(2021, 11, 13, 20, 31, 56) / 1000, 'fee', 'outflow', '0.001372904511', 'AVAX'],
      [Date.UTC(2021, 11, 13, 20, 31, 56) / 1000, 'fee', 'outflow', '0.001372904511', 'AVAX'],
      [Date.UTC(2021, 11, 13, 20, 31, 56) / 1000, 'transfer', 'outflow', '20', 'AVAX'],
      [Date.UTC(2021, 11, 13, 20, 31, 56) / 1000, 'transfer', 'outflow', '4.5', 'AVAX'],
      // Line 11: a token sent, its fee in AVAX.
      [Date.UTC(2021, 11, 20, 17, 44, 10) / 1000, 'fee', 'outflow', '0.002975218', 'AVAX'],
      [Date.UTC(2021, 11, 20, 17, 44, 10) / 1000, 'transfer', 'outflow', '88', 'MIM'],
    ]);
    // Net Worth, Label and Description are empty throughout: no values, tags or notes.
    expect(list.every((r) => r.fiat_cents === null && r.notes === null && r.token_address === null)).toBe(true);
    expect(importFile(fixture('koinly-universal.csv'), { walletId: w })).toMatchObject({ imported: 0, duplicates: 15 });
  });
});

describe('rotki generic events (rotki-events.csv: ms timestamps, CAIP ids, no final newline)', () => {
  it('rejects the file for its Invalid row, naming line, field and reason', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    const err = txaErrorOf(() => importFile(fixture('rotki-events.csv'), { walletId: w }));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.message).toBe('1 row is invalid; nothing was imported');
    expect(err.extra?.errors).toEqual([{ line: 8, field: 'Type', reason: expect.stringContaining("'Invalid'") }]);
    expect(rows(w)).toEqual([]);
  });

  it('imports the valid rows with ms timestamps, CAIP asset ids and stable synthetic hashes', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    const valid = join(ctx.dir, 'rotki.csv');
    writeFileSync(valid, readFileSync(fixture('rotki-events.csv'), 'utf8').split('\n').slice(0, 7).join('\n'));
    expect(importFile(valid, { walletId: w })).toMatchObject({ format: 'rotki', imported: 7 });
    const usdt = '0xdac17f958d2ee523a2206206994597c13d831ec7';
    expect(rows(w).map((r) => [r.ts, r.type, r.direction, r.amount, r.token_symbol, r.token_address, r.token_decimals])).toEqual([
      [1661990400, 'transfer', 'inflow', '250', 'EUR', null, 18], // Deposit
      // Withdrawal of USDT by CAIP id (checksummed), 6 decimals, its fee in the same asset; 1662076800500 ms.
      [1662076800, 'fee', 'outflow', '0.5', 'USDT', usdt, 6],
      [1662076800, 'transfer', 'outflow', '49.5', 'USDT', usdt, 6],
      // A CAIP id of no known token: its address, shortened, is the symbol.
      [1662163200, 'transfer', 'outflow', '2.02', '0xcf99…19fb', '0xcf99294a9abdbcab2f6dfe31d18095d2738119fb', 18],
      [1662249600, 'transfer', 'inflow', '0.0275', 'ETH', null, 18], // Staking
      [1662336000, 'transfer', 'outflow', '0.0125', 'BTC', null, 18], // Loss
      [1662422400, 'transfer', 'inflow', '400', 'DAI', '0x6b175474e89094c44da98b954eedeac495271d0f', 18], // Income
    ]);
    expect(rows(w, 'ts = 1661990400')[0]).toMatchObject({
      notes: 'Deposit · kraken · Deposit EUR to Kraken',
      tx_hash: expect.stringMatching(/^rotki:[0-9a-f]{40}$/),
    });
    expect(importFile(valid, { walletId: w })).toMatchObject({ imported: 0, duplicates: 7 });
  });
});

describe('the fixture files keep the byte-level quirks they stand for', () => {
  const text = (name: string) => readFileSync(fixture(name), 'latin1');
  const dataLines = (name: string, eol: string) =>
    text(name)
      .split(eol)
      .slice(1)
      .filter((l) => l !== '');

  it('line endings, quoting, field counts and the missing final newline', () => {
    const files = [
      'etherscan-normal.csv',
      'etherscan-erc20.csv',
      'arbiscan-raw.csv',
      'arbiscan-excel.csv',
      'bscscan-token-tracker.csv',
      'polygonscan-subset.csv',
      'koinly-universal.csv',
      'rotki-events.csv',
    ];
    for (const f of files) expect(text(f).startsWith('\u00ef\u00bb\u00bf'), `${f} has no BOM`).toBe(false);
    for (const f of ['arbiscan-raw.csv', 'arbiscan-excel.csv', 'bscscan-token-tracker.csv', 'koinly-universal.csv']) {
      expect(
        text(f)
          .split('\n')
          .slice(0, -1)
          .every((l) => l.endsWith('\r')),
        `${f} is CRLF`,
      ).toBe(true);
    }
    for (const f of ['etherscan-normal.csv', 'etherscan-erc20.csv', 'polygonscan-subset.csv', 'rotki-events.csv'])
      expect(text(f), `${f} is LF`).not.toContain('\r');
    // Every field quoted, empty ones as "".
    for (const f of ['etherscan-normal.csv', 'etherscan-erc20.csv', 'arbiscan-raw.csv']) {
      expect(
        text(f)
          .split(/\r?\n/)
          .filter(Boolean)
          .every((l) => /^"[^"]*"(,"[^"]*")*$/.test(l)),
        `${f} is all quoted`,
      ).toBe(true);
    }
    // 16 names, 17 fields per data row.
    expect(text('arbiscan-raw.csv').split('\r\n')[0]!.split(',')).toHaveLength(16);
    expect(dataLines('arbiscan-raw.csv', '\r\n').every((l) => l.split(',').length === 17 && l.endsWith(',""'))).toBe(true);
    expect(dataLines('arbiscan-excel.csv', '\r\n').filter((l) => l === ','.repeat(15))).toHaveLength(3);
    // Only the quantities with a thousands separator are quoted.
    expect(
      text('bscscan-token-tracker.csv')
        .match(/"[^"]*"/g)!
        .every((q) => q.includes(',')),
    ).toBe(true);
    expect(text('rotki-events.csv').endsWith('\n')).toBe(false);
  });
});

/**
 * Every real explorer / tax-tool sample of ../shared/samples/explorer-csv imported into a real
 * ledger, in addition to the fixture tests (quirks.test.ts); skipped where the folder is absent.
 * Expected numbers were worked out by hand from the files (see the comments).
 */
import { expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importLedger } from '../helpers/import-ledger.js';
import { txaErrorOf } from '../helpers/errors.js';
import { describeSamples, sample } from '../helpers/samples.js';

const ETH_WALLET = '0x003dc32fe920a4aaeed12dc87e145f030aa753f3';

const ctx = importLedger();
const { wallet, importFile, rows, count } = ctx;

describeSamples('etherscan normal transactions', () => {
  it('imports one value row per successful tx and a fee row per tx the wallet sent', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    const s = importFile(sample('etherscan_normal_txns.csv'), { walletId: w });
    // 482 rows: 24 Error(0) txs import only their fee; 458 others a value row; 476 sent by the wallet pay a fee.
    expect(s).toMatchObject({ format: 'etherscan', imported: 458 + 476, duplicates: 0, skipped: 0 });
    expect(count(w, "type = 'fee'")).toBe(476);
    expect(count(w, "direction = 'inflow'")).toBe(6);
    expect(count(w, "direction = 'outflow' AND type != 'fee' AND amount != '0'")).toBe(63);
    expect(count(w, "amount = '0'")).toBe(389);
  });

  it('keeps 18 decimals exactly, values at the historical price, and failed txs move no value', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    importFile(sample('etherscan_normal_txns.csv'), { walletId: w });
    const [first] = rows(w, 'tx_hash = ?', '0xb41d6819932845278e7c451400f1778a952b35c6358dc51b49436438753f5113');
    // Incoming 0.5 ETH at $311.26; the sender paid the fee, so there is no fee row.
    expect(rows(w, 'tx_hash = ?', '0xb41d6819932845278e7c451400f1778a952b35c6358dc51b49436438753f5113')).toHaveLength(1);
    expect(first).toMatchObject({
      amount: '0.5',
      fiat_cents: 15563,
      direction: 'inflow',
      type: 'transfer',
      token_symbol: 'ETH',
      token_address: null,
      token_decimals: 18,
    });
    // 34.495975469528555004 ETH out at $90.43 = 3119.4699…; fee 0.0000884142 ETH at the same day's $90.43 = $0.0080
    // (never the file's TxnFee(USD) 0.2001…, which is at the export day's price).
    const big = rows(w, 'tx_hash = ?', '0x93fa7522a133b8d840334f6fb898799232e828883b5f5798749beff043db63a8');
    expect(big.map((r) => [r.type, r.direction, r.amount, r.fiat_cents])).toEqual([
      ['fee', 'outflow', '0.0000884142', 1],
      ['transfer', 'outflow', '34.495975469528555004', 311947],
    ]);
    // Error(0) with Value_OUT 4.56: only the fee was paid, 0.000147 ETH at $195.67 = $0.0288.
    const failed = rows(w, 'tx_hash = ?', '0x92ce04a67578af1e5e5dea54a35c0775e5fb3e36e7f619de28274e3ad6657fa0');
    expect(failed.map((r) => [r.type, r.amount, r.fiat_cents])).toEqual([['fee', '0.000147', 3]]);
  });

  it('refuses a wallet of another chain than the file', () => {
    const w = wallet(ETH_WALLET, 'bsc');
    const err = txaErrorOf(() => importFile(sample('etherscan_normal_txns.csv'), { walletId: w }));
    expect([err.code, err.field]).toEqual(['IMPORT_FAILED', 'wallet']);
    expect(count(w)).toBe(0);
  });
});

describeSamples('etherscan ERC-20 token transfers', () => {
  it('reads thousands separators, $-formatted and N/A values, mints and token identities', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    const s = importFile(sample('etherscan_erc20_token_txns.csv'), { walletId: w });
    expect(s.imported).toBe(428);
    expect(count(w, "direction = 'inflow'")).toBe(239);
    expect(count(w, "direction = 'outflow'")).toBe(189);
    expect(count(w, 'fiat_cents IS NULL')).toBe(61);
    expect(count(w, "type = 'mint'")).toBe(37);
    const [spam] = rows(w, 'tx_hash = ?', '0x06b2dda7d199578d9930b991574b773b68ae28c80bc855277ed3c52233abf8ab');
    expect(spam).toMatchObject({
      amount: '1553054158',
      fiat_cents: null,
      type: 'mint',
      token_symbol: 'findtherabbit.me',
      token_address: '0x2ff2b86c156583b1135c584fd940a1996fa4230b',
      token_decimals: 18,
    });
    const [sai] = rows(w, 'tx_hash = ?', '0xc7ae0341a01440a6c81937f4d035afe6e4ecc31144a47862b90fff93eb18a072');
    expect(sai).toMatchObject({ amount: '1035', fiat_cents: 102198, direction: 'inflow', token_symbol: 'SAI' });
    // USDC is a known token: its 6 decimals, not 18.
    expect(rows(w, "token_symbol = 'USDC'")[0]!.token_decimals).toBe(6);
  });

  it('gives several transfers of one hash distinct identities, and a second run adds nothing', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    importFile(sample('etherscan_erc20_token_txns.csv'), { walletId: w });
    const again = importFile(sample('etherscan_erc20_token_txns.csv'), { walletId: w });
    expect(again).toMatchObject({ imported: 0, duplicates: 428 });
    const keys = ctx.engine.db.prepare('SELECT count(DISTINCT tx_hash) AS h, count(*) AS n FROM transactions WHERE wallet_id = ?').get(w) as {
      h: number;
      n: number;
    };
    expect(keys.n).toBe(428);
    expect(keys.h).toBeLessThan(428);
  });
});

describeSamples('arbiscan normal transactions', () => {
  it('raw export: 17 fields under 16 names, a contract creation, 18-decimal inflows', () => {
    const w = wallet('0xaa098e5c9b002f815d7c9756bcfce0fc18b3f362', 'arbitrum');
    const s = importFile(sample('arbiscan_normal_txns_raw.csv'), { walletId: w });
    // The wallet is the contract: it never sent, so no fees.
    expect(s).toMatchObject({ imported: 9, skipped: 0 });
    const [creation] = rows(w, 'tx_hash = ?', '0xeaea55dac4927be6dbda85191e33ea92f65b4da983240b49a38e96de9a668200');
    expect(creation).toMatchObject({ amount: '0', type: 'contract_call', direction: 'inflow', to_address: '0xaa098e5c9b002f815d7c9756bcfce0fc18b3f362' });
    const [deposit] = rows(w, 'tx_hash = ?', '0x9907ce377d0032536e181dab8faf17867b1d700aee38ff9b375c634068c376bd');
    // 0.000330694363898445 × 3085.42 = 1.0203310042… → $1.02
    expect(deposit).toMatchObject({ amount: '0.000330694363898445', fiat_cents: 102, direction: 'inflow', ts: 1713284711 });
  });

  it('Excel re-save: scientific notation, M/D/YYYY dates (UnixTimestamp wins), trailing comma rows, failed incoming txs skipped', () => {
    const w = wallet('0x1133ea7af70876e64665ecd07c0a0476d09465a1', 'arbitrum');
    const skipped: number[] = [];
    const s = importFile(sample('arbiscan_normal_txns_excel_resaved.csv'), { walletId: w, onSkipped: (r) => skipped.push(r.line) });
    // 445 real rows; 3 failed (Error(0)) txs were sent by others, so nothing of them is the wallet's.
    expect(s).toMatchObject({ imported: 442, skipped: 3 });
    expect(skipped).toEqual([75, 141, 300]);
    const [sci] = rows(w, 'tx_hash = ?', '0xf7cb5d4bf0cc9bdcdfc2119ea44d5c22c27a788ef78737ff5a3765426e687709');
    // 9.39445E-05 × 3219.78 = 0.3024806…
    expect(sci).toMatchObject({ amount: '0.0000939445', fiat_cents: 30, direction: 'inflow' });
    expect(rows(w, 'tx_hash = ?', '0xd693e0ac6625da293ce8cc86494e3297bc25a2f7e64cf1d281f743340cfa7f95')[0]!.amount).toBe('0.00000313255');
  });
});

describeSamples('bscscan token-tracker export', () => {
  const tracker = () => {
    const named = join(ctx.dir, 'quidd-bsc-transfers-0x7961Ade0a767c0E5B67Dd1a1F78ba44F727642Ed.csv');
    copyFileSync(sample('bscscan_token_transfers_excel_resaved.csv'), named);
    return named;
  };

  it('takes the token from the file name and skips rows of other holders', () => {
    const w = wallet('0x72571d815dd31fbde52be0b9d7ffc8344aede616', 'bsc');
    const s = importFile(tracker(), { walletId: w });
    // 880 rows, 8 touch the wallet: 2 bridge mints in, 1 burn out, 5 transfers out.
    expect(s).toMatchObject({ imported: 8, skipped: 872 });
    expect(count(w, "type = 'mint' AND direction = 'inflow'")).toBe(2);
    expect(count(w, "type = 'burn' AND direction = 'outflow'")).toBe(1);
    const [lp] = rows(w, 'tx_hash = ?', '0x7b0f654867cc15c269a05762dbef0477186e627dd56341ab22a81b85eec7fa4b');
    expect(lp).toMatchObject({
      amount: '138967.8',
      direction: 'outflow',
      token_address: '0x7961ade0a767c0e5b67dd1a1f78ba44f727642ed',
      token_symbol: '0x7961…42ed',
      token_decimals: 18,
      fiat_cents: null,
    });
  });

  it('refuses the file when neither its name nor --token-address gives the token, naming the flag', () => {
    const w = wallet('0x72571d815dd31fbde52be0b9d7ffc8344aede616', 'bsc');
    const err = txaErrorOf(() => importFile(sample('bscscan_token_transfers_excel_resaved.csv'), { walletId: w }));
    expect([err.code, err.field, err.extra]).toEqual(['IMPORT_FAILED', 'ContractAddress', { missing_columns: ['ContractAddress'] }]);
    expect(err.message).toContain('pass --token-address 0x…');
    expect(err.hint).toContain('--token-address');
  });

  it('takes the token from --token-address; with the file name too, the two must agree', () => {
    const w = wallet('0x72571d815dd31fbde52be0b9d7ffc8344aede616', 'bsc');
    const s = importFile(sample('bscscan_token_transfers_excel_resaved.csv'), { walletId: w, tokenAddress: '0x7961Ade0a767c0E5B67Dd1a1F78ba44F727642Ed' });
    expect(s).toMatchObject({ imported: 8, skipped: 872 });
    // The same rows as from the file name: a named download adds nothing.
    expect(importFile(tracker(), { walletId: w, tokenAddress: '0x7961ade0a767c0e5b67dd1a1f78ba44f727642ed' })).toMatchObject({ imported: 0, duplicates: 8 });
    const other = txaErrorOf(() => importFile(tracker(), { walletId: w, tokenAddress: `0x${'ab'.repeat(20)}` }));
    expect([other.code, other.field]).toEqual(['USAGE_ERROR', 'token-address']);
  });
});

describeSamples('polygonscan column subset (no Txhash, From, To)', () => {
  const FILE = 'polygonscan_normal_txns_column_subset.csv';

  it('reads the wallet side from Value_IN/Value_OUT and charges fees only to rows it sent', () => {
    const w = wallet(ETH_WALLET, 'polygon');
    // 862 rows with a Value_IN: inflows without fee; 938 without value: a 0 outflow and a fee each.
    expect(importFile(sample(FILE), { walletId: w })).toMatchObject({ imported: 862 + 2 * 938, skipped: 0 });
    expect(count(w, "direction = 'inflow' AND type = 'transfer' AND to_address = ? AND from_address = ''", ETH_WALLET)).toBe(862);
    expect(count(w, "direction = 'outflow' AND type = 'contract_call' AND amount = '0' AND from_address = ?", ETH_WALLET)).toBe(938);
    expect(count(w, "type = 'fee'")).toBe(938);
    // The last day (2024-04-16) has no Historical $Price: its 72 rows and their 44 fees are unpriced.
    expect(count(w, 'fiat_cents IS NULL')).toBe(72 + 44);
    expect(count(w, "fiat_cents IS NULL AND type = 'fee'")).toBe(44);
    expect(count(w, "tx_hash GLOB 'etherscan:*'")).toBe(2738);
  });

  it('synthetic hashes: stable across imports, distinct for identical rows, blind to prices filled in later', () => {
    const w = wallet(ETH_WALLET, 'polygon');
    const text = readFileSync(sample(FILE), 'utf8');
    importFile(sample(FILE), { walletId: w });
    expect(
      rows(w, 'ts = 1712674467')
        .map((r) => r.tx_hash)
        .filter((h, i, all) => all.indexOf(h) === i),
    ).toHaveLength(3);
    // A later export: another CurrentValue header, and the newest day's price filled in.
    const later = text.replace('CurrentValue @ $0.703172221747878/MATIC', 'CurrentValue @ $0.51/MATIC').replace(/,\n/g, ',0.72\n');
    expect(later.match(/,0\.72\n/g)).toHaveLength(72);
    const path = join(ctx.dir, 'polygon-later.csv');
    writeFileSync(path, later);
    expect(importFile(path, { walletId: w })).toMatchObject({ imported: 0, duplicates: 2738 });
  });

  it('refuses --token-address: the file moves only the native coin', () => {
    const w = wallet(ETH_WALLET, 'polygon');
    const err = txaErrorOf(() => importFile(sample(FILE), { walletId: w, tokenAddress: `0x${'ab'.repeat(20)}` }));
    expect([err.code, err.field]).toEqual(['USAGE_ERROR', 'token-address']);
  });
});

describeSamples('koinly universal', () => {
  it('imports each side and the fees; a send and a receive sharing a hash are a swap', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    const s = importFile(sample('koinly_universal_import.csv'), { walletId: w });
    // 86 send rows (each with a fee) + 93 receive rows + 86 fee rows.
    expect(s).toMatchObject({ format: 'koinly', imported: 179 + 86, skipped: 0 });
    // 60 hashes occur twice; 55 of them pair a send with a receive (110 swap rows). The other 5 are
    // two receives or two sends of one tx: transfers, told apart by the per-hash transfer index.
    expect(count(w, "type = 'swap'")).toBe(110);
    expect(count(w, "type = 'transfer'")).toBe(179 - 110);
    const swap = rows(w, 'tx_hash = ?', '0x465b1905d46d7cc8bb61f8a38904002ad9d73d62a6588355c4ff948daa5b860a');
    expect(swap.map((r) => [r.type, r.direction, r.amount, r.token_symbol])).toEqual([
      ['fee', 'outflow', '0.0032969', 'AVAX'],
      ['swap', 'outflow', '0.1', 'AVAX'],
      ['swap', 'inflow', '2.439836828498', 'JOE'],
    ]);
    expect(swap[0]!.ts).toBe(Date.UTC(2021, 9, 17, 20, 44, 22) / 1000);
  });
});

describeSamples('rotki generic events', () => {
  it('rejects the file for its Invalid row, naming line, field and reason', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    const err = txaErrorOf(() => importFile(sample('rotki_generic_events_import.csv'), { walletId: w }));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.message).toBe('1 row is invalid; nothing was imported');
    expect(err.extra?.errors).toEqual([{ line: 8, field: 'Type', reason: expect.stringContaining("'Invalid'") }]);
    expect(count(w)).toBe(0);
  });

  it('imports the valid rows with ms timestamps, CAIP asset ids and stable synthetic hashes', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    const valid = join(ctx.dir, 'rotki.csv');
    writeFileSync(valid, readFileSync(sample('rotki_generic_events_import.csv'), 'utf8').split('\n').slice(0, 7).join('\n'));
    expect(importFile(valid, { walletId: w })).toMatchObject({ format: 'rotki', imported: 7 });
    const usdt = rows(w, "token_symbol = 'USDT'");
    expect(usdt.map((r) => [r.type, r.direction, r.amount, r.token_decimals, r.token_address, r.ts])).toEqual([
      ['fee', 'outflow', '1', 6, '0xdac17f958d2ee523a2206206994597c13d831ec7', 1658998800],
      ['transfer', 'outflow', '99', 6, '0xdac17f958d2ee523a2206206994597c13d831ec7', 1658998800],
    ]);
    expect(usdt[0]!.tx_hash).toMatch(/^rotki:[0-9a-f]{40}$/);
    expect(rows(w, "token_symbol = 'DAI'")[0]).toMatchObject({ direction: 'inflow', amount: '1000', token_decimals: 18 });
    expect(importFile(valid, { walletId: w })).toMatchObject({ imported: 0, duplicates: 7 });
  });
});

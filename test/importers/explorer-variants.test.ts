/**
 * The Etherscan-family files of the newer chains (Basescan, Optimistic Etherscan, Lineascan,
 * Snowscan, Gnosisscan), Etherscan's internal-transactions export, and an explorer layout txa
 * does not read, on the synthetic fixtures of fixtures/import (README there maps each quirk).
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { importLedger } from '../helpers/import-ledger.js';
import { txaErrorOf } from '../helpers/errors.js';
import { listTransactions } from '../../src/engine/transactions.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');
const fixture = (name: string) => resolve(FIXTURES, name);

const BASE_WALLET = '0x65404c6da7f94d572b9095b7e6c9846ccfb7b66f';
const OP_WALLET = '0xa686ee22dca0200f3b37ecdd8ffeab36d2ffc03a';
const LINEA_WALLET = '0x14556799a54352ecf2774f61ec9b26d0bed0070e';
const AVAX_WALLET = '0x8b4759d9ba15bd979122e80b62d32146ed5208e6';
const GNOSIS_WALLET = '0xfb9f1d325c8ae5f7f730912679df315ea61956a0';
const ETH_WALLET = '0xd3615f34ba96a642fe0ad91902c6f426b0cc9397';
const ZKSYNC_WALLET = '0x0513f06b40e9ab6724a172b5a2efb43a6b6423ad';

const ctx = importLedger();
const { wallet, importFile, rows } = ctx;

/** [type, direction, amount, fiat cents, token symbol] of every row of a wallet, in time order, fees first. */
const ledger = (walletId: string) => rows(walletId).map((r) => [r.type, r.direction, r.amount, r.fiat_cents, r.token_symbol]);

describe('normal transactions of the newer explorers', () => {
  it('Basescan (DateTime, a trailing empty field, CRLF): value, fees of sent txs, a failed tx paying only its fee; basescan links', () => {
    const w = wallet(BASE_WALLET, 'base');
    expect(importFile(fixture('basescan-normal.csv'), { walletId: w })).toMatchObject({ imported: 6, duplicates: 0, skipped: 0 });
    expect(ledger(w)).toEqual([
      ['transfer', 'inflow', '0.5', 160000, 'ETH'],
      ['fee', 'outflow', '0.000123456789012345', 40, 'ETH'],
      ['swap', 'outflow', '0.1', 32005, 'ETH'],
      ['fee', 'outflow', '0.0000045', 1, 'ETH'],
      ['approval', 'outflow', '0', 0, 'ETH'],
      ['fee', 'outflow', '0.000031', 10, 'ETH'],
    ]);
    const listed = listTransactions(ctx.engine, ctx.ws, { workspace_id: ctx.ws, wallet_id: w, limit: '1' });
    expect(listed.data[0]!.explorer_url).toMatch(/^https:\/\/basescan\.org\/tx\/0x[0-9a-f]{64}$/);
  });

  it('Optimistic Etherscan and Lineascan (DateTime (UTC)), Snowscan (AVAX), Gnosisscan (xDAI)', () => {
    const cases: [string, string, string, unknown[][]][] = [
      [
        'optimism-normal.csv',
        OP_WALLET,
        'optimism',
        [
          ['transfer', 'inflow', '1.25', 400000, 'ETH'],
          // The whole fee, L1 data fee included, to the wei.
          ['fee', 'outflow', '0.000187936499371752', 60, 'ETH'],
          ['bridge', 'outflow', '0.2', 63802, 'ETH'],
        ],
      ],
      [
        'lineascan-normal.csv',
        LINEA_WALLET,
        'linea',
        [
          ['transfer', 'inflow', '0.042', 13860, 'ETH'],
          ['fee', 'outflow', '0.000015', 5, 'ETH'],
          ['transfer', 'outflow', '0.01', 3300, 'ETH'],
        ],
      ],
      [
        'snowscan-normal.csv',
        AVAX_WALLET,
        'avalanche',
        [
          ['transfer', 'inflow', '12.5', 43625, 'AVAX'],
          ['fee', 'outflow', '0.000525', 2, 'AVAX'],
          // 2.75 × 35.02 = 96.305 → 96.30 (half to even).
          ['transfer', 'outflow', '2.75', 9630, 'AVAX'],
        ],
      ],
      [
        'gnosisscan-normal.csv',
        GNOSIS_WALLET,
        'gnosis',
        [
          ['transfer', 'inflow', '250', 25000, 'xDAI'],
          ['fee', 'outflow', '0.000042', 0, 'xDAI'],
          ['transfer', 'outflow', '99.99', 9997, 'xDAI'],
        ],
      ],
    ];
    for (const [file, address, chain, expected] of cases) {
      const w = wallet(address, chain);
      expect(importFile(fixture(file), { walletId: w }).imported, file).toBe(3);
      expect(ledger(w), file).toEqual(expected);
    }
  });

  it("refuses a file whose native coin is not the wallet chain's, naming both, and imports nothing", () => {
    const polygon = wallet(BASE_WALLET, 'polygon');
    const err = txaErrorOf(() => importFile(fixture('basescan-normal.csv'), { walletId: polygon }));
    expect([err.code, err.field]).toEqual(['IMPORT_FAILED', 'wallet']);
    expect(err.message).toBe(
      `the file's amounts are in ETH (the native coin of ethereum, arbitrum, base, optimism, linea, scroll, zksync, blast), but wallet ${polygon} is on polygon, whose coin is POL`,
    );
    const base = wallet(AVAX_WALLET, 'base');
    expect(txaErrorOf(() => importFile(fixture('snowscan-normal.csv'), { walletId: base })).message).toMatch(
      /amounts are in AVAX \(the native coin of avalanche\)/,
    );
    expect(rows(polygon)).toEqual([]);
    expect(rows(base)).toEqual([]);
  });

  it('an ETH file fits any wallet of a chain whose coin is ETH: the header cannot tell Basescan from Etherscan (docs/import.md)', () => {
    const w = wallet(BASE_WALLET, 'ethereum');
    expect(importFile(fixture('basescan-normal.csv'), { walletId: w }).imported).toBe(6);
  });
});

describe('Etherscan internal transactions (etherscan-internal.csv: 17 names, 18 fields, Status 0 on success)', () => {
  it('imports what contracts paid the wallet and what it paid through them; skips failed and valueless calls', () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    const skipped: { line: number; reason: string }[] = [];
    expect(importFile(fixture('etherscan-internal.csv'), { walletId: w, onSkipped: (r) => skipped.push(r) })).toMatchObject({ imported: 5, skipped: 2 });
    expect(rows(w).map((r) => [r.type, r.direction, r.amount, r.fiat_cents, r.to_address === ETH_WALLET])).toEqual([
      // 1.234567890123456789 × 1650.00 = 2037.04…
      ['transfer', 'inflow', '1.234567890123456789', 203704, true],
      // 0.5 × 1700.25 = 850.125 → 850.12 (half to even).
      ['transfer', 'inflow', '0.5', 85012, true],
      // Two equal payouts in one tx stay two transactions.
      ['transfer', 'inflow', '0.1', 16000, true],
      ['transfer', 'inflow', '0.1', 16000, true],
      ['transfer', 'outflow', '0.3', 40500, false],
    ]);
    expect(skipped).toEqual([
      { line: 6, reason: 'failed internal call: no value moved' },
      { line: 8, reason: 'internal call moving no value' },
    ]);
    const keys = ctx.engine.db.prepare('SELECT transfer_key FROM transactions WHERE wallet_id = ? ORDER BY ts, transfer_key').pluck().all(w);
    expect(keys).toEqual(['i:ETH:inflow:0', 'i:ETH:inflow:0', 'i:ETH:inflow:0', 'i:ETH:inflow:1', 'i:ETH:outflow:0']);
  });

  it("keys internal value apart from the normal file's: an internal inflow in the tx of a normal inflow (line 3 = etherscan-normal.csv:2) is not a duplicate", () => {
    const w = wallet(ETH_WALLET, 'ethereum');
    importFile(fixture('etherscan-internal.csv'), { walletId: w });
    expect(importFile(fixture('etherscan-normal.csv'), { walletId: w })).toMatchObject({ imported: 14, duplicates: 0 });
    expect(importFile(fixture('etherscan-internal.csv'), { walletId: w })).toMatchObject({ imported: 0, duplicates: 5 });
  });
});

describe('an explorer layout txa does not read', () => {
  it('refuses it naming the layouts it reads (not a hint about --token-address), and suggests wallet sync', () => {
    const w = wallet(ZKSYNC_WALLET, 'zksync');
    const err = txaErrorOf(() => importFile(fixture('page-data-layout.csv'), { walletId: w }));
    expect([err.code, err.field]).toEqual(['IMPORT_FAILED', 'format']);
    expect(err.message).toMatch(
      /none of the Etherscan-family layouts txa reads: normal transactions .*internal transactions .*token transfers .*token tracker \(Quantity\)$/,
    );
    expect(err.message).not.toMatch(/token-address/);
    expect(err.hint).toMatch(/txa wallet sync ID/);
  });
});

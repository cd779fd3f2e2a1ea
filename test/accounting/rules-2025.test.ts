/**
 * The worked examples 14–20 of docs/accounting.md (the order of one second, own transfers at
 * once, the scope by year and its transition, specific identification, fees), one test each under
 * the same title; every figure was computed by hand there.
 */
import { describe, expect, it } from 'vitest';
import { allocate, allocationAt, type AllocatedLot } from '../../src/accounting/allocation.js';
import { AssetTable } from '../../src/accounting/assets.js';
import { quantityText } from '../../src/accounting/quantity.js';
import type { DisposalLine, LotPick } from '../../src/accounting/tax-ledger.js';
import { centsToString } from '../../src/core/money.js';
import { USDC, X, buy, feed, ledger, linked, run, sell, type Row, type RunOptions } from './helpers.js';

const money = (c: bigint | null | undefined) => (c === null || c === undefined ? '' : centsToString(c));
/** A disposal as: sold, acquired, quantity, asset, proceeds, cost, gain, term, wallet, note. */
const disposals = (rows: Row[], opts: RunOptions = {}) =>
  run(rows, opts)
    .filter((l): l is DisposalLine => l.kind === 'disposal')
    .map((l) => [
      l.tx.timestamp.slice(0, 10),
      l.acquired?.at.slice(0, 10) ?? '',
      quantityText(l.quantity),
      l.asset.symbol,
      money(l.proceedsCents),
      money(l.costCents),
      money(l.gainCents),
      l.term ?? '',
      l.tx.wallet_label,
      l.note ?? '',
    ]);
const allocated = (lots: AllocatedLot[]) => lots.map((a) => [a.walletId, a.lotId, a.quantity, money(a.costCents)]);

describe('docs/accounting.md worked examples (2025)', () => {
  it('14. The order of one second', () => {
    // No block known: the purchase (an acquisition) comes before the sale, whatever the ids:
    // 12.00 − 10.00 = 2.00. Given in either order, the same line.
    const at = '2024-05-01T10:00:00Z';
    const purchase = buy({ at, amount: '1', value: 10, token: X, hash: '0xb1' });
    const sale = sell({ at, amount: '1', value: 12, token: X, hash: '0xb2' });
    const expected = [['2024-05-01', '2024-05-01', '1', 'X', '12.00', '10.00', '2.00', 'short', 'Wallet a', '']];
    expect(disposals([sale, purchase])).toEqual(expected);
    expect(disposals([purchase, sale])).toEqual(expected);
    // The block says the sale came first (position 1, the purchase 3): it meets no lot.
    const placed = [
      sell({ at, amount: '1', value: 12, token: X, hash: '0xb2', block: 100, position: 1 }),
      buy({ at, amount: '1', value: 10, token: X, hash: '0xb1', block: 100, position: 3 }),
    ];
    expect(disposals([placed[1]!, placed[0]!])).toEqual([['2024-05-01', '', '1', 'X', '12.00', '', '', '', 'Wallet a', '']]);
    // One transaction's own rows: the transfer, then its fee. Per wallet, Wallet a's January lot
    // (1,000.00) leaves with the transfer; the fee meets the February lot: 3,000.00 × 0.01 = 30.00.
    const rows = [
      buy({ at: '2024-01-10', amount: '1', value: 1000 }),
      buy({ at: '2024-02-10', amount: '1', value: 3000 }),
      sell({ at: '2024-03-01T09:00:00Z', amount: '0.01', value: 25, type: 'fee', hash: '0xt1' }),
      buy({ at: '2024-03-01T09:00:00Z', amount: '1', value: 2500, transfer: 'trf_1', wallet: 'wal_b', hash: '0xt1' }),
      sell({ at: '2024-03-01T09:00:00Z', amount: '1', value: 2500, transfer: 'trf_1', hash: '0xt1' }),
    ];
    expect(disposals(rows, { scope: 'wallet' })).toEqual([['2024-03-01', '2024-02-10', '0.01', 'ETH', '25.00', '30.00', '-5.00', 'short', 'Wallet a', '']]);
  });

  it('15. An own transfer in the pool changes nothing', () => {
    // Pooled, FIFO. Wallet a's transfer to Wallet b leaves the pool as it is, so its fee meets the
    // pool's oldest lot (January, 1,000.00 an ETH): 0.01 costs 10.00, gain 20.00 − 10.00 = 10.00.
    // (Taken out "in transit", the lot would have left the fee the February lot: 30.00.)
    const rows = [
      buy({ at: '2024-01-10', amount: '1', value: 1000 }),
      buy({ at: '2024-02-10', amount: '1', value: 3000, wallet: 'wal_b' }),
      sell({ at: '2024-03-01', amount: '1', value: 2000, transfer: 'trf_1', hash: '0xt2' }),
      buy({ at: '2024-03-01', amount: '1', value: 2000, transfer: 'trf_1', wallet: 'wal_b', hash: '0xt2' }),
      sell({ at: '2024-03-01', amount: '0.01', value: 20, type: 'fee', hash: '0xt2' }),
      // Wallet b then sells 1 ETH for 2,500.00: the pool's 0.99 of January (990.00) and 0.01 of February (30.00).
      sell({ at: '2024-04-01', amount: '1', value: 2500, wallet: 'wal_b' }),
    ];
    expect(disposals(rows, { scope: 'universal' })).toEqual([
      ['2024-03-01', '2024-01-10', '0.01', 'ETH', '20.00', '10.00', '10.00', 'short', 'Wallet a', ''],
      ['2024-04-01', '2024-01-10', '0.99', 'ETH', '2475.00', '990.00', '1485.00', 'short', 'Wallet b', ''],
      ['2024-04-01', '2024-02-10', '0.01', 'ETH', '25.00', '30.00', '-5.00', 'short', 'Wallet b', ''],
    ]);
  });

  it('16. The transition with three wallets', () => {
    const rows = [
      buy({ at: '2023-03-01', amount: '2', value: 2000 }),
      buy({ at: '2023-06-01', amount: '1', value: 1500, wallet: 'wal_b' }),
      buy({ at: '2024-02-01', amount: '1', value: null, wallet: 'wal_c' }),
      sell({ at: '2024-05-01', amount: '1', value: 3000 }),
      sell({ at: '2024-08-01', amount: '0.5', value: 1200, transfer: 'trf_1' }),
      buy({ at: '2024-08-01', amount: '0.5', value: 1200, transfer: 'trf_1', wallet: 'wal_c' }),
      sell({ at: '2025-03-01', amount: '1.5', value: 6000, wallet: 'wal_c' }),
      sell({ at: '2025-03-01', amount: '1', value: 4000, wallet: 'wal_b' }),
    ];
    const [lotA, lotB] = [rows[0]!.id, rows[1]!.id];
    // At 2025-01-01 the pool holds what is left of A's lot (1 ETH, 1,000.00) and B's (1 ETH,
    // 1,500.00); the wallets hold 0.5 (a), 1 (b) and 1.5 (c). FIFO, in the order a, b, c.
    const expected = [
      ['wal_a', lotA, '0.5', '500.00'],
      ['wal_b', lotA, '0.5', '500.00'],
      ['wal_b', lotB, '0.5', '750.00'],
      ['wal_c', lotB, '0.5', '750.00'],
      ['wal_c', '', '1', ''],
    ];
    const opts = { method: 'fifo' as const, order: 'fifo' as const, assets: new AssetTable(), walletOrder: ['wal_a', 'wal_b', 'wal_c'] };
    expect(
      allocated(
        allocationAt(
          linked(rows).map((tx) => ({ tx })),
          '2025-01-01T00:00:00Z',
          opts,
        ),
      ),
    ).toEqual(expected);
    const l = ledger({ scope: 'by-year' });
    const out = feed(l, rows);
    expect(l.transition?.source).toBe('computed');
    expect(allocated(l.transition!.lots)).toEqual(expected);
    const cells = (ls: typeof out) =>
      ls
        .filter((x): x is DisposalLine => x.kind === 'disposal')
        .map((x) => [x.tx.wallet_label, x.acquired?.id ?? '', quantityText(x.quantity), money(x.costCents), money(x.gainCents), x.term ?? '']);
    expect(cells(out)).toEqual([
      // 2024, pooled: Wallet a's sale meets lot A.
      ['Wallet a', lotA, '1', '1000.00', '2000.00', 'long'],
      // 2025, Wallet c: its 0.5 of lot B (750.00 against 2,000.00), then 1 ETH with no cost basis.
      ['Wallet c', lotB, '0.5', '750.00', '1250.00', 'long'],
      ['Wallet c', '', '1', '', '', ''],
      // 2025, Wallet b: 0.5 of lot A (500.00) and 0.5 of lot B (750.00), each against 2,000.00.
      ['Wallet b', lotA, '0.5', '500.00', '1500.00', 'long'],
      ['Wallet b', lotB, '0.5', '750.00', '1250.00', 'long'],
    ]);
    // A recorded allocation is used instead, and said to be: Wallet c given all of lot A's rest.
    const recorded: AllocatedLot[] = [
      { walletId: 'wal_a', assetKey: 'asset:ETH', assetSymbol: 'ETH', lotId: lotB, quantity: '0.5', acquiredAt: rows[1]!.timestamp, costCents: 75000n },
      { walletId: 'wal_b', assetKey: 'asset:ETH', assetSymbol: 'ETH', lotId: lotB, quantity: '0.5', acquiredAt: rows[1]!.timestamp, costCents: 75000n },
      { walletId: 'wal_b', assetKey: 'asset:ETH', assetSymbol: 'ETH', lotId: '', quantity: '0.5', acquiredAt: '', costCents: null },
      { walletId: 'wal_c', assetKey: 'asset:ETH', assetSymbol: 'ETH', lotId: lotA, quantity: '1', acquiredAt: rows[0]!.timestamp, costCents: 100000n },
      { walletId: 'wal_c', assetKey: 'asset:ETH', assetSymbol: 'ETH', lotId: '', quantity: '0.5', acquiredAt: '', costCents: null },
    ];
    const r = ledger({ scope: 'by-year', allocation: { recorded } });
    const withRecorded = feed(r, rows);
    expect(r.transition?.source).toBe('recorded');
    expect(cells(withRecorded).slice(1)).toEqual([
      ['Wallet c', lotA, '1', '1000.00', '3000.00', 'long'],
      ['Wallet c', '', '0.5', '', '', ''],
      ['Wallet b', lotB, '0.5', '750.00', '1250.00', 'long'],
      ['Wallet b', '', '0.5', '', '', ''],
    ]);
  });

  it('17. Specific identification, recorded before and after the sale', () => {
    const rows = [
      buy({ at: '2024-01-10', amount: '1', value: 1000 }),
      buy({ at: '2024-02-10', amount: '1', value: 3000 }),
      buy({ at: '2024-03-10', amount: '1', value: 2000 }),
      sell({ at: '2025-03-01', amount: '1', value: 2500 }),
      sell({ at: '2025-04-01', amount: '1', value: 2800 }),
    ];
    const [a, b, c, sale1, sale2] = rows.map((r) => r.id) as [string, string, string, string, string];
    const picks = new Map<string, LotPick[]>([
      [sale1, [{ lotId: b, quantity: null, recordedAt: '2025-03-01T09:00:00Z' }]],
      [sale2, [{ lotId: c, quantity: '0.5', recordedAt: '2025-04-05T08:00:00Z' }]],
    ]);
    expect(disposals(rows, { scope: 'by-year', method: 'specific', picks })).toEqual([
      ['2025-03-01', '2024-02-10', '1', 'ETH', '2500.00', '3000.00', '-500.00', 'long', 'Wallet a', ''],
      ['2025-04-01', '2024-03-10', '0.5', 'ETH', '1400.00', '1000.00', '400.00', 'long', 'Wallet a', 'identified after the sale'],
      ['2025-04-01', '2024-01-10', '0.5', 'ETH', '1400.00', '500.00', '900.00', 'long', 'Wallet a', 'not identified'],
    ]);
    // What is left: half of A (500.00) and half of C (1,000.00).
    const l = ledger({ scope: 'by-year', method: 'specific', picks });
    feed(l, rows);
    expect(l.openLots().map((o) => [o.lotId, quantityText(o.quantity), money(o.costCents)])).toEqual([
      [a, '0.5', '500.00'],
      [c, '0.5', '1000.00'],
    ]);
  });

  it('18. A swap whose gas goes into the new lot', () => {
    // Swap 0.5 ETH (1,250.00) for 1,250 USDC, gas 0.004 ETH (10.00), one transaction 0xs1. The ETH
    // sale: 1,250.00 − 1,000.00 = 250.00; the gas: 10.00 − 8.00 = 2.00; the USDC lot costs
    // 1,250.00 + 10.00 = 1,260.00, so its sale for 1,250.00 loses 10.00 (separate: 0.00).
    const rows = [
      buy({ at: '2024-01-01', amount: '1', value: 2000 }),
      sell({ at: '2024-02-01', amount: '0.5', value: 1250, type: 'swap', hash: '0xs1' }),
      buy({ at: '2024-02-01', amount: '1250', value: 1250, type: 'swap', token: USDC, hash: '0xs1' }),
      sell({ at: '2024-02-01', amount: '0.004', value: 10, type: 'fee', hash: '0xs1' }),
      sell({ at: '2024-03-01', amount: '1250', value: 1250, token: USDC }),
    ];
    const gains = (treatment: 'adjust' | 'separate') => disposals(rows, { feeTreatment: treatment }).map((l) => [l[2], l[3], l[4], l[5], l[6]]);
    expect(gains('adjust')).toEqual([
      ['0.5', 'ETH', '1250.00', '1000.00', '250.00'],
      ['0.004', 'ETH', '10.00', '8.00', '2.00'],
      ['1250', 'USDC', '1250.00', '1260.00', '-10.00'],
    ]);
    expect(gains('separate')[2]).toEqual(['1250', 'USDC', '1250.00', '1250.00', '0.00']);
  });

  it('19. A sale whose gas reduces its proceeds', () => {
    // 0.5 ETH paid out (1,500.00) with 0.002 ETH of gas (6.00), transaction 0xp1: nothing acquired,
    // so the gas leaves the proceeds: 1,500.00 − 6.00 = 1,494.00, gain 1,494.00 − 1,000.00 = 494.00.
    // The gas keeps its own line: 6.00 − 4.00 = 2.00.
    const rows = [
      buy({ at: '2024-01-01', amount: '2', value: 4000 }),
      sell({ at: '2024-04-01', amount: '0.002', value: 6, type: 'fee', hash: '0xp1' }),
      sell({ at: '2024-04-01', amount: '0.5', value: 1500, hash: '0xp1' }),
    ];
    const out = run(rows).filter((l): l is DisposalLine => l.kind === 'disposal');
    expect(out.map((l) => [quantityText(l.quantity), money(l.proceedsCents), money(l.costCents), money(l.gainCents), money(l.feeCents)])).toEqual([
      ['0.5', '1494.00', '1000.00', '494.00', '6.00'],
      ['0.002', '6.00', '4.00', '2.00', ''],
    ]);
    expect(disposals(rows, { feeTreatment: 'separate' }).map((l) => l[6])).toEqual(['500.00', '2.00']);
  });

  it('20. The 0.1 ETH sale from the Arbitrum wallet', () => {
    const rows = [
      buy({ at: '2023-05-01', amount: '1', value: 1500, wallet: 'wal_a' }),
      buy({ at: '2024-01-10', amount: '1', value: 1800, wallet: 'wal_b' }),
      sell({ at: '2024-03-01T10:00:00Z', amount: '0.5', value: 1000, transfer: 'trf_1', kind: 'bridge', wallet: 'wal_a' }),
      buy({ at: '2024-03-01T10:05:00Z', amount: '0.5', value: 1000, transfer: 'trf_1', kind: 'bridge', wallet: 'wal_c', chain: 'arbitrum' }),
      sell({ at: '2024-06-01', amount: '1', value: 3500, wallet: 'wal_b' }),
      sell({ at: '2025-02-01', amount: '0.1', value: 300, wallet: 'wal_c', chain: 'arbitrum' }),
    ];
    const arb = (opts: RunOptions) =>
      disposals(rows, opts)
        .filter((l) => l[8] === 'Wallet c')
        .map((l) => [l[1], l[5], l[6]]);
    // Per wallet for every year: Wallet c's own lot, half of A's at 1,500.00 an ETH: 150.00. That
    // lot was used up by Wallet b's pooled 2024 sale as filed: basis used twice.
    expect(arb({ scope: 'wallet' })).toEqual([['2023-05-01', '150.00', '150.00']]);
    // One pool for every year: after Wallet b's 2024 sale took A's lot, the pool holds B's lot: 180.00.
    expect(arb({ scope: 'universal' })).toEqual([['2024-01-10', '180.00', '120.00']]);
    // By year: 2024 pooled as filed; at 2025-01-01 B's lot (1 ETH, 1,800.00) goes 0.5 to Wallet a
    // and 0.5 to Wallet c, their balances: the sale costs 0.1 × 1,800.00 = 180.00.
    expect(arb({ scope: 'by-year' })).toEqual([['2024-01-10', '180.00', '120.00']]);
  });
});

describe('the transition without a row of 2025', () => {
  it('end(until) splits the pool when the moment asked for is past it: open lots per wallet', () => {
    const rows = [
      buy({ at: '2024-01-10', amount: '2', value: 2000 }),
      sell({ at: '2024-02-01', amount: '1', value: 1500, wallet: 'wal_a', transfer: 'trf_1' }),
      buy({ at: '2024-02-01', amount: '1', value: 1500, wallet: 'wal_b', transfer: 'trf_1' }),
    ];
    const open = (until?: string) => {
      const l = ledger({ scope: 'by-year' });
      for (const tx of linked(rows)) l.add(tx, true);
      l.end(until);
      return [l.transition?.source ?? null, l.openLots().map((o) => [o.walletId, quantityText(o.quantity), money(o.costCents)])];
    };
    expect(open('2024-12-31T23:59:59Z')).toEqual([null, [[null, '2', '2000.00']]]);
    expect(open()).toEqual([null, [[null, '2', '2000.00']]]);
    expect(open('2025-06-30T23:59:59Z')).toEqual([
      'computed',
      [
        ['wal_a', '1', '1000.00'],
        ['wal_b', '1', '1000.00'],
      ],
    ]);
  });
});

describe('allocate', () => {
  const pool = [
    { assetKey: 'asset:ETH', assetSymbol: 'ETH', lotId: 'tx_1', quantity: '1', acquiredAt: '2024-01-01T00:00:00Z', costCents: 100000n },
    { assetKey: 'asset:ETH', assetSymbol: 'ETH', lotId: 'tx_2', quantity: '1', acquiredAt: '2024-02-01T00:00:00Z', costCents: 300000n },
    { assetKey: 'asset:ETH', assetSymbol: 'ETH', lotId: 'tx_3', quantity: '1', acquiredAt: '2024-03-01T00:00:00Z', costCents: 200000n },
  ];
  const balances = [
    { walletId: 'w2', assetKey: 'asset:ETH', quantity: '1.5' },
    { walletId: 'w1', assetKey: 'asset:ETH', quantity: '1' },
    { walletId: 'w3', assetKey: 'asset:ETH', quantity: '-0.1' },
  ];
  it('hands the lots out in the order to the wallets in wallet order, splitting a lot by the pro-rating rule', () => {
    expect(allocated(allocate(pool, balances, ['w1', 'w2', 'w3'], 'fifo'))).toEqual([
      ['w1', 'tx_1', '1', '1000.00'],
      ['w2', 'tx_2', '1', '3000.00'],
      ['w2', 'tx_3', '0.5', '1000.00'],
    ]);
    expect(allocated(allocate(pool, balances, ['w1', 'w2', 'w3'], 'lifo'))).toEqual([
      ['w1', 'tx_3', '1', '2000.00'],
      ['w2', 'tx_2', '1', '3000.00'],
      ['w2', 'tx_1', '0.5', '500.00'],
    ]);
    expect(allocated(allocate(pool, balances, ['w2', 'w1'], 'hifo'))).toEqual([
      ['w2', 'tx_2', '1', '3000.00'],
      ['w2', 'tx_3', '0.5', '1000.00'],
      ['w1', 'tx_3', '0.5', '1000.00'],
      ['w1', 'tx_1', '0.5', '500.00'],
    ]);
  });
});

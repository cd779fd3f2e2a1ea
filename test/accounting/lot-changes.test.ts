/**
 * TaxOptions.onLots, the ledger's account of its books' changes besides disposals (what the
 * roll-forward counts). By hand (FIFO, lots per wallet, 2,000.00 per ETH in lot A):
 *  - wal_a buys 2 ETH for 4,000.00 (lot A): acquired 2 / 4,000.00; earns 1 ETH worth 1,000.00 (Salary): income.
 *  - t1: wal_a sends 1.5 ETH (worth 3,000.00), wal_b receives 1.4: 1.5 of A leave wal_a (3,000.00);
 *    the shortfall 0.1 is a disposal line (cost 200.00, from wal_a); 1.4 / 2,800.00 move a → b.
 *  - t2: wal_b sends 0.4 (worth 800.00), wal_a receives 0.5 (worth 1,000.00): 0.4 of A move b → a
 *    (800.00); the excess 0.1 opens a lot in wal_a at 1,000.00 × 0.1/0.5 = 200.00 (transfer_in).
 *  - t3, a leg alone: wal_a sends 0.3: 0.3 of A (600.00) go into transit.
 * By year, a disposal in 2025 splits the pool first: all its lots out of `*`, into the wallets.
 */
import { describe, expect, test } from 'vitest';
import { AssetTable } from '../../src/accounting/assets.js';
import { quantityText } from '../../src/accounting/quantity.js';
import { TaxLedger, type LotChange, type TaxOptions } from '../../src/accounting/tax-ledger.js';
import { SALARY, buy, linked, sell } from './helpers.js';

function changes(rows: ReturnType<typeof buy>[], scope?: TaxOptions['scope']) {
  const seen: LotChange[] = [];
  const l = new TaxLedger({
    method: 'fifo',
    ...(scope ? { scope } : {}),
    assets: new AssetTable(),
    walletOrder: ['wal_a', 'wal_b'],
    onLots: (c) => seen.push(c),
  });
  const lines = [...linked(rows).flatMap((tx) => l.add(tx, true)), ...l.end()];
  return { seen, lines, shown: seen.map((c) => [c.kind, c.scope, quantityText(c.quantity), c.costCents, c.tx?.id ?? null]) };
}

describe('onLots', () => {
  test('acquisitions, income, a transfer short and one long, a leg alone', () => {
    const a = buy({ at: '2024-01-01', amount: '2', value: 4000 });
    const pay = buy({ at: '2024-02-01', amount: '1', value: 1000, tags: [SALARY] });
    const out1 = sell({ at: '2024-03-01', amount: '1.5', value: 3000, transfer: 't1' });
    const in1 = buy({ at: '2024-03-01T12:00:05Z', wallet: 'wal_b', amount: '1.4', value: 3000, transfer: 't1' });
    const out2 = sell({ at: '2024-04-01', wallet: 'wal_b', amount: '0.4', value: 800, transfer: 't2' });
    const in2 = buy({ at: '2024-04-01T12:00:05Z', amount: '0.5', value: 1000, transfer: 't2' });
    const alone = sell({ at: '2024-05-01', amount: '0.3', value: 600, transfer: 't3' });
    const { shown, lines } = changes([a, pay, out1, in1, out2, in2, alone], 'wallet');
    expect(shown).toEqual([
      ['acquired', 'wal_a', '2', 400000n, a.id],
      ['income', 'wal_a', '1', 100000n, pay.id],
      ['transfer_out', 'wal_a', '1.4', 280000n, out1.id],
      ['transfer_in', 'wal_b', '1.4', 280000n, in1.id],
      ['transfer_out', 'wal_b', '0.4', 80000n, out2.id],
      ['transfer_in', 'wal_a', '0.4', 80000n, in2.id],
      ['transfer_in', 'wal_a', '0.1', 20000n, in2.id],
      ['transfer_out', 'wal_a', '0.3', 60000n, alone.id],
      ['transfer_in', 'transit', '0.3', 60000n, alone.id],
    ]);
    // The shortfall is the one disposal: from wal_a's lot A.
    expect(lines.map((l) => (l.kind === 'disposal' ? [l.walletId, quantityText(l.quantity), l.costCents, l.proceedsCents] : l.kind))).toEqual([
      'income',
      ['wal_a', '0.1', 20000n, 20000n],
    ]);
  });

  test('by year: the split at the transition moves every pool lot out of `*` and into the wallets', () => {
    const { seen } = changes([
      buy({ at: '2024-06-01', amount: '1', value: 1000 }),
      buy({ at: '2024-07-01', wallet: 'wal_b', amount: '1', value: 3000 }),
      sell({ at: '2025-02-01', amount: '0.5', value: 900 }),
    ]);
    const split = seen.filter((c) => c.tx === null);
    expect(split.map((c) => [c.kind, c.scope])).toEqual([
      ['transfer_out', '*'],
      ['transfer_in', expect.stringMatching(/^wal_/)],
      ['transfer_in', expect.stringMatching(/^wal_/)],
    ]);
    expect([quantityText(split[0]!.quantity), split[0]!.costCents]).toEqual(['2', 400000n]);
    expect(split.slice(1).reduce((s, c) => s + c.costCents, 0n)).toBe(400000n);
  });
});

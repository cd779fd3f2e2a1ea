/**
 * The order of the rows of one second (docs/accounting.md "Order within one second"), on rows
 * whose ids are given in the opposite order to the rule's, so no id decides.
 */
import { describe, expect, it } from 'vitest';
import { sortSecond } from '../../src/accounting/order.js';
import type { LedgerRow } from '../../src/accounting/tax-ledger.js';
import { buy, linked, sell, type Row } from './helpers.js';

const at = '2024-05-01T10:00:00Z';
const rank = (id: string) => ['wal_a', 'wal_b'].indexOf(id);
const sorted = (rows: Row[]) => {
  const group = [...linked(rows)].reverse().map((tx: LedgerRow) => ({ tx }));
  sortSecond(group, rank);
  return group.map(({ tx }) => `${tx.direction === 'inflow' ? '+' : '-'}${tx.type}${tx.transfer ? ':leg' : ''} ${tx.tx_hash}`);
};

describe('order within one second', () => {
  it('acquisitions, own-transfer legs (sending first), other disposals, fees; then the tx hash', () => {
    expect(
      sorted([
        sell({ at, amount: '0.01', value: 1, type: 'fee', hash: '0x01' }),
        sell({ at, amount: '1', value: 1, hash: '0x02' }),
        buy({ at, amount: '1', value: 1, transfer: 't1', wallet: 'wal_b', hash: '0x01' }),
        sell({ at, amount: '1', value: 1, transfer: 't1', hash: '0x01' }),
        buy({ at, amount: '1', value: 1, hash: '0x03' }),
        buy({ at, amount: '2', value: 1, hash: '0x02' }),
      ]),
    ).toEqual(['+transfer 0x02', '+transfer 0x03', '-transfer:leg 0x01', '+transfer:leg 0x01', '-transfer 0x02', '-fee 0x01']);
  });

  it('block and position first where known, rows that know them before those that do not; a row without a position takes its transaction’s', () => {
    expect(
      sorted([
        buy({ at, amount: '1', value: 1, hash: '0x0a' }),
        sell({ at, amount: '1', value: 1, hash: '0x0b', block: 7, position: 9 }),
        // The fee of 0x0b has the block but no position: it takes 0x0b's 9 and follows its sale.
        sell({ at, amount: '0.01', value: 1, type: 'fee', hash: '0x0b', block: 7 }),
        buy({ at, amount: '1', value: 1, hash: '0x0c', block: 7, position: 2 }),
        sell({ at, amount: '1', value: 1, hash: '0x0d', block: 6, position: 30 }),
      ]),
    ).toEqual(['-transfer 0x0d', '+transfer 0x0c', '-transfer 0x0b', '-fee 0x0b', '+transfer 0x0a']);
  });
});

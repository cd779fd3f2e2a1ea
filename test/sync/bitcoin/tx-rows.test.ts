/**
 * A Bitcoin transaction's rows for one wallet (docs/sync.md "Bitcoin", "Rows"), on the cases the
 * sync tests' replay does not build: a coinbase input, outputs with no address (OP_RETURN), equal
 * largest sides (the first wins), a transaction that does not touch the wallet, and a send whose
 * inputs are all the wallet's to several foreign outputs.
 */
import { describe, expect, it } from 'vitest';
import { txRecords } from '../../../src/sync/bitcoin/tx-rows.js';
import type { EsploraTx } from '../../../src/sync/bitcoin/tx-fields.js';

const OWN_A = 'bc1qowna';
const OWN_B = 'bc1qownb';
const F1 = '1foreign1';
const F2 = '1foreign2';
const own = new Set([OWN_A, OWN_B]);

function tx(vin: ([string | null, number] | null)[], vout: [string | null, number][], fee: number): EsploraTx {
  return {
    txid: 'ab'.repeat(32),
    vin: vin.map((i) => ({ prevout: i && { address: i[0], value: BigInt(i[1]) } })),
    vout: vout.map(([address, value]) => ({ address, value: BigInt(value) })),
    fee: BigInt(fee),
    confirmed: true,
    blockHeight: 840_000,
    blockTime: 1_713_571_767,
  };
}

const shape = (t: EsploraTx) => txRecords(t, own).map((r) => [r.direction, r.type, r.amount, r.from_address, r.to_address]);

describe('txRecords', () => {
  it('a coinbase paying the wallet: an inflow from no address, no fee row', () => {
    expect(
      shape(
        tx(
          [null],
          [
            [OWN_A, 312_500_000],
            [null, 0],
          ],
          0,
        ),
      ),
    ).toEqual([['inflow', 'transfer', '3.125', '', OWN_A]]);
  });

  it('a send of own inputs to two foreign outputs and a larger one with no address: the largest addressed output is the counterparty, the whole fee the wallet’s', () => {
    const t = tx(
      [
        [OWN_A, 60_000],
        [OWN_B, 295_000],
      ],
      [
        [null, 155_000],
        [F1, 30_000],
        [F2, 150_000],
        [OWN_B, 10_000],
      ],
      10_000,
    );
    // own in 355,000, own out 10,000 (change), fee 10,000 (every input the wallet's): 10,000 − 355,000 + 10,000 = −335,000.
    expect(shape(t)).toEqual([
      ['outflow', 'transfer', '0.00335', OWN_B, F2],
      ['outflow', 'fee', '0.0001', OWN_B, ''],
    ]);
  });

  it('equal largest sides: the first one names the counterparty and the wallet’s side', () => {
    const t = tx(
      [
        [F1, 50_000],
        [F2, 50_000],
      ],
      [
        [OWN_B, 45_000],
        [OWN_A, 45_000],
      ],
      10_000,
    );
    expect(shape(t)).toEqual([['inflow', 'transfer', '0.0009', F1, OWN_B]]);
  });

  it('a transaction that touches none of the wallet’s addresses has no rows; a consolidation only its fee', () => {
    expect(shape(tx([[F1, 10_000]], [[F2, 9_000]], 1_000))).toEqual([]);
    expect(
      shape(
        tx(
          [
            [OWN_A, 10_000],
            [OWN_B, 5_000],
          ],
          [[OWN_A, 14_000]],
          1_000,
        ),
      ),
    ).toEqual([['outflow', 'fee', '0.00001', OWN_A, '']]);
  });
});

/**
 * A confirmed Bitcoin transaction as the rows of one wallet (docs/sync.md "Bitcoin"): one row for
 * its net effect on the wallet's addresses, and a `fee` row for the wallet's share of the fee.
 *
 * - own in = the values of the inputs spending the wallet's outputs; own out = the outputs paying
 *   the wallet's addresses (change among them, which moves nothing).
 * - fee share: all inputs the wallet's → the whole fee; none → 0 (the payer's fee is not the
 *   payee's); some (a coinjoin, a payjoin) → fee × own in ÷ all in, rounded down to the satoshi:
 *   each party pays for the inputs it brought.
 * - movement = own out − own in + fee share: above 0 an inflow, below 0 an outflow of its size,
 *   0 none (a consolidation: only its fee).
 * - counterparty: an outflow's `to_address` is the largest output to another address; an inflow's
 *   `from_address` the address of the largest input from another address (empty for a coinbase).
 *   The wallet's own side is its largest own input (outflow, fee) or output (inflow).
 */
import { fromBaseUnits } from '../../core/money.js';
import { CHAIN_INFO } from '../../core/chains.js';
import type { ImportRecord } from '../../importers/types.js';
import type { EsploraTx } from './tx-fields.js';

const BTC = CHAIN_INFO.bitcoin.native;

interface Side {
  address: string | null;
  value: bigint;
}

/** The address of the largest of `sides` (the first of equals), or ''. */
function largest(sides: Side[]): string {
  let best: Side | undefined;
  for (const s of sides) if (s.address !== null && (!best || s.value > best.value)) best = s;
  return best?.address ?? '';
}

const sum = (sides: Side[]): bigint => sides.reduce((n, s) => n + s.value, 0n);

/** The wallet's share of `tx`'s fee, in satoshis. */
export function feeShare(tx: EsploraTx, ownIn: bigint, allIn: bigint, allInputsOwn: boolean): bigint {
  if (ownIn === 0n || allIn === 0n) return 0n;
  return allInputsOwn ? tx.fee : (tx.fee * ownIn) / allIn;
}

/** The rows of a confirmed `tx` for the wallet whose addresses are `own`; none when it does not touch them. */
export function txRecords(tx: EsploraTx, own: ReadonlySet<string>): ImportRecord[] {
  const inputs: Side[] = tx.vin.map((i) => i.prevout ?? { address: null, value: 0n });
  const isOwn = (s: Side) => s.address !== null && own.has(s.address);
  const ownInputs = inputs.filter(isOwn);
  const foreignInputs = inputs.filter((s) => !isOwn(s));
  const ownOutputs = tx.vout.filter(isOwn);
  const foreignOutputs = tx.vout.filter((s) => !isOwn(s));
  if (ownInputs.length === 0 && ownOutputs.length === 0) return [];
  const ownIn = sum(ownInputs);
  const fee = feeShare(tx, ownIn, sum(inputs), foreignInputs.length === 0 && tx.vin.every((i) => i.prevout !== null));
  const movement = sum(ownOutputs) - ownIn + fee;
  // Its block orders it among the rows of one second (docs/accounting.md "Order within one second"); its
  // position in the block is not asked for (docs/sync.md "Bitcoin": a call per block of thousands of txids).
  const base = { line: 0, tx_hash: tx.txid, token: BTC, fiat_value: null, timestamp: tx.blockTime!, block: tx.blockHeight!, notes: null } as const;
  const ownSender = largest(ownInputs);
  const records: ImportRecord[] = [];
  if (movement < 0n) {
    records.push({
      ...base,
      from_address: ownSender,
      to_address: largest(foreignOutputs),
      amount: fromBaseUnits(-movement, 8),
      direction: 'outflow',
      type: 'transfer',
    });
  } else if (movement > 0n) {
    records.push({
      ...base,
      from_address: largest(foreignInputs),
      to_address: largest(ownOutputs),
      amount: fromBaseUnits(movement, 8),
      direction: 'inflow',
      type: 'transfer',
    });
  }
  if (fee > 0n) records.push({ ...base, from_address: ownSender, to_address: '', amount: fromBaseUnits(fee, 8), direction: 'outflow', type: 'fee' });
  return records;
}

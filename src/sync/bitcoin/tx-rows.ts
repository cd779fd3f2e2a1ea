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

/** The largest of one kind of side met so far: its value and address (the first of equals). */
interface Best {
  address: string;
  value: bigint;
}

/** `best` or the side (value, address) when it is larger; sides with no address never count. */
const larger = (best: Best | undefined, address: string | null, value: bigint): Best | undefined =>
  address !== null && (!best || value > best.value) ? { address, value } : best;

/** The wallet's share of `tx`'s fee, in satoshis. */
export function feeShare(tx: EsploraTx, ownIn: bigint, allIn: bigint, allInputsOwn: boolean): bigint {
  if (ownIn === 0n || allIn === 0n) return 0n;
  return allInputsOwn ? tx.fee : (tx.fee * ownIn) / allIn;
}

/**
 * The rows of a confirmed `tx` for the wallet whose addresses are `own`; none when it does not
 * touch them. One pass over the inputs and one over the outputs, summing and keeping the largest
 * of each side as it goes: a sync computes this for every transaction of every walked address.
 */
export function txRecords(tx: EsploraTx, own: ReadonlySet<string>): ImportRecord[] {
  let allIn = 0n;
  let ownIn = 0n;
  let ownOut = 0n;
  let ownInputs = 0;
  let ownOutputs = 0;
  let foreignInputs = 0;
  let ownSender: Best | undefined;
  let foreignSender: Best | undefined;
  let ownReceiver: Best | undefined;
  let foreignReceiver: Best | undefined;
  for (const { prevout } of tx.vin) {
    // A coinbase input (no prevout) is a foreign one of no value and no address.
    const address = prevout?.address ?? null;
    const value = prevout?.value ?? 0n;
    allIn += value;
    if (address !== null && own.has(address)) {
      ownIn += value;
      ownInputs++;
      ownSender = larger(ownSender, address, value);
    } else {
      foreignInputs++;
      foreignSender = larger(foreignSender, address, value);
    }
  }
  for (const { address, value } of tx.vout) {
    if (address !== null && own.has(address)) {
      ownOut += value;
      ownOutputs++;
      ownReceiver = larger(ownReceiver, address, value);
    } else {
      foreignReceiver = larger(foreignReceiver, address, value);
    }
  }
  if (ownInputs === 0 && ownOutputs === 0) return [];
  const fee = feeShare(tx, ownIn, allIn, foreignInputs === 0);
  const movement = ownOut - ownIn + fee;
  // Its block orders it among the rows of one second (docs/accounting.md "Order within one second"); its
  // position in the block is not asked for (docs/sync.md "Bitcoin": a call per block of thousands of txids).
  const row = (from_address: string, to_address: string, units: bigint, direction: 'inflow' | 'outflow', type: 'transfer' | 'fee'): ImportRecord => ({
    line: 0,
    tx_hash: tx.txid,
    token: BTC,
    fiat_value: null,
    timestamp: tx.blockTime!,
    block: tx.blockHeight!,
    notes: null,
    from_address,
    to_address,
    amount: fromBaseUnits(units, 8),
    direction,
    type,
  });
  const sender = ownSender?.address ?? '';
  const records: ImportRecord[] = [];
  if (movement < 0n) records.push(row(sender, foreignReceiver?.address ?? '', -movement, 'outflow', 'transfer'));
  else if (movement > 0n) records.push(row(foreignSender?.address ?? '', ownReceiver?.address ?? '', movement, 'inflow', 'transfer'));
  if (fee > 0n) records.push(row(sender, '', fee, 'outflow', 'fee'));
  return records;
}

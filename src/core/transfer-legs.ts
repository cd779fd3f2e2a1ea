/**
 * The row shape own-transfer matching reads (accounting/transfers.ts) and the store produces
 * (store/transfers.ts), and the key of a rejected pair: here, below both, so neither layer
 * reaches into the other.
 */
import type { Direction } from './types.js';

/** What matching reads of a row. */
export interface Leg {
  id: string;
  wallet_id: string;
  chain: string;
  tx_hash: string;
  token_symbol: string;
  token_address: string | null;
  /** Canonical decimal in token units. */
  amount: string;
  direction: Direction;
  type: string;
  ts: number;
  from_address: string;
  to_address: string;
  /** The transfer the row is a leg of, and how many legs that transfer has. */
  transfer: { id: string; legs: number } | null;
  /**
   * An outflow's network fee in its own coin (the `fee` row of its wallet and transaction), where
   * the proposal of an exchange transfer reads it; absent elsewhere.
   */
  fee?: string | null;
}

/** What a proposal reads of a free row that moves value: a Leg without what only matching by hash or by address needs. */
export type FreeLeg = Pick<Leg, 'id' | 'wallet_id' | 'chain' | 'token_symbol' | 'amount' | 'direction' | 'ts'>;

/** Key of a rejected pair (`in` empty for a one-leg transfer), as the engine stores rejections. */
export const rejectionKey = (outId: string, inId: string) => `${outId}\0${inId}`;

/**
 * What the tax ledger reads of a transaction (tax-ledger.ts, order.ts): a leaf of types, so the
 * ledger's modules share it without importing each other.
 */
import type { Direction, Token } from '../core/types.js';

/** What the ledger knows of an own transfer's other leg (the engine reads it with the row). */
export interface TransferCounterpart {
  id: string;
  timestamp: string;
  wallet_id: string;
  wallet_label: string;
  chain: string;
  tx_hash: string;
  token: Pick<Token, 'symbol' | 'address' | 'decimals'>;
  amount: string;
  fiat_cents: bigint | null;
}

/**
 * What the ledger reads of a transaction: the API Transaction's fields of these names, the value
 * as exact cents in the report's currency, and the names of its income-type tags (in the order
 * of its tags). The engine reads just these columns (engine/ledger-rows.ts).
 */
export interface LedgerRow {
  id: string;
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  timestamp: string;
  wallet_id: string;
  wallet_label: string;
  chain: string;
  tx_hash: string;
  token: Pick<Token, 'symbol' | 'address' | 'decimals'>;
  amount: string;
  direction: Direction;
  type: string;
  /** `counterpart` the other leg, null or absent when it is not in the ledger (a one-leg transfer). */
  transfer: { id: string; counterpart_id: string | null; counterpart?: TransferCounterpart | null } | null;
  fiat_cents: bigint | null;
  income_tags: readonly string[];
  /** Block number and the transaction's index in it, where the source gave them (order.ts). */
  block?: number | null;
  block_position?: number | null;
}

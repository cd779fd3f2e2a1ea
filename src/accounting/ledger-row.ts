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

/**
 * The `type` of an opening lot's row (docs/lots.md "Opening lots"): a synthetic inflow the engine
 * merges into the stream (engine/opening-rows.ts), never a transaction. Its tx_hash is '', so it
 * is no fee's mate; its id is the lot's (`lot_…`).
 */
export const OPENING_TYPE = 'opening';

/** Whether a ledger row is an opening lot (a roll-forward shows it as opening, not as an acquisition). */
export function isOpeningRow(tx: Pick<LedgerRow, 'type' | 'tx_hash'>): boolean {
  return tx.type === OPENING_TYPE && tx.tx_hash === '';
}

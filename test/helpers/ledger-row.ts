/**
 * A Transaction as the tax ledger reads it (LedgerRow): the reference the engine's lean reader
 * (engine/ledger-rows.ts) is held to, and how hand-written Transaction fixtures reach the ledger.
 */
import type { LedgerRow } from '../../src/accounting/tax-ledger.js';
import { decimalToCents } from '../../src/core/money.js';
import type { TagType, Transaction } from '../../src/core/types.js';

const centsOf = (tx: Transaction) => {
  const cents = tx.fiat_value === null ? null : decimalToCents(String(tx.fiat_value));
  return cents === null ? null : BigInt(cents);
};

/** `others` finds an own transfer's other leg by id (converted like `tx`): the ledger moves lots with it. */
export function ledgerRowOf(tx: Transaction, tagType: (tagId: string) => TagType | null, others?: (id: string) => Transaction | undefined): LedgerRow {
  const other = tx.transfer?.counterpart_id ? others?.(tx.transfer.counterpart_id) : undefined;
  return {
    id: tx.id,
    timestamp: tx.timestamp,
    wallet_id: tx.wallet_id,
    wallet_label: tx.wallet_label,
    chain: tx.chain,
    tx_hash: tx.tx_hash,
    token: tx.token,
    amount: tx.amount,
    direction: tx.direction,
    type: tx.type,
    transfer: tx.transfer && {
      id: tx.transfer.id,
      counterpart_id: tx.transfer.counterpart_id,
      counterpart: other
        ? {
            id: other.id,
            timestamp: other.timestamp,
            wallet_id: other.wallet_id,
            wallet_label: other.wallet_label,
            chain: other.chain,
            tx_hash: other.tx_hash,
            token: other.token,
            amount: other.amount,
            fiat_cents: centsOf(other),
          }
        : null,
    },
    fiat_cents: centsOf(tx),
    income_tags: tx.tags.filter((t) => tagType(t.id) === 'income').map((t) => t.name),
  };
}

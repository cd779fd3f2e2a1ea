/**
 * A Transaction as the tax ledger reads it (LedgerRow): the reference the engine's lean reader
 * (engine/ledger-rows.ts) is held to, and how hand-written Transaction fixtures reach the ledger.
 */
import type { LedgerRow } from '../../src/accounting/tax-ledger.js';
import { decimalToCents } from '../../src/core/money.js';
import type { TagType, Transaction } from '../../src/core/types.js';

export function ledgerRowOf(tx: Transaction, tagType: (tagId: string) => TagType | null): LedgerRow {
  const cents = tx.fiat_value === null ? null : decimalToCents(String(tx.fiat_value));
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
    transfer: tx.transfer && { id: tx.transfer.id, counterpart_id: tx.transfer.counterpart_id },
    fiat_cents: cents === null ? null : BigInt(cents),
    income_tags: tx.tags.filter((t) => tagType(t.id) === 'income').map((t) => t.name),
  };
}

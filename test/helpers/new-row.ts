/**
 * A hand-built ledger row (NewTransaction, as the store inserts it): a plain transfer between two
 * fixed outside addresses, in ETH on ethereum unless told otherwise. Tests pass what they vary.
 */
import { transactionId } from '../../src/core/ids.js';
import { amountKey } from '../../src/core/money.js';
import type { NewTransaction } from '../../src/store/transactions.js';

export interface RowToken {
  symbol: string;
  address: string | null;
  decimals: number;
}

export const ETH: RowToken = { symbol: 'ETH', address: null, decimals: 18 };

type Given = Pick<NewTransaction, 'workspace_id' | 'wallet_id' | 'tx_hash' | 'amount' | 'direction' | 'ts'>;

export function newRow(given: Given & Partial<NewTransaction> & { token?: RowToken }): NewTransaction {
  const { token = ETH, ...fields } = given;
  return {
    id: transactionId(given.wallet_id, given.tx_hash, '0'),
    chain: 'ethereum',
    transfer_key: '0',
    from_address: `0x${'9'.repeat(40)}`,
    to_address: `0x${'8'.repeat(40)}`,
    token_symbol: token.symbol,
    token_address: token.address,
    token_decimals: token.decimals,
    amount_key: amountKey(given.amount),
    fiat_cents: null,
    type: 'transfer',
    notes: null,
    ...fields,
  };
}

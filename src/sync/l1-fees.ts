/**
 * The L1 data fee of rollups synced from Blockscout. On OP-stack chains and Scroll the fee paid is
 * gasUsed × gasPrice plus an L1 fee that is often 99 % of it (docs/sync.md "Rules"; leaving it out was
 * rotki#6033). Etherscan's txlist rows carry it (`L1FeesPaid`); Blockscout's do not, so each
 * transaction the wallet sent is asked for once, and its rows get the fee as `l1Fee`, which
 * rows.ts adds to the gas fee as it does Etherscan's field.
 */
import { CHAIN_INFO } from '../core/chains.js';
import type { ApiRow, ExplorerApi } from './explorer-api.js';

/** Sets `l1Fee` on the txlist rows `address` sent, where the chain charges one and the row lacks it. */
export async function addL1Fees(api: ExplorerApi, rows: ApiRow[], address: string): Promise<void> {
  if (api.source.kind !== 'blockscout' || !CHAIN_INFO[api.source.chain].l1Fee) return;
  for (const row of rows) {
    if (String(row.from).toLowerCase() !== address || 'L1FeesPaid' in row || 'l1Fee' in row) continue;
    // rows.ts refuses a malformed hash; it never goes into a URL.
    if (!/^0x[0-9a-f]{64}$/i.test(String(row.hash))) continue;
    row.l1Fee = String(await api.l1FeeOf(String(row.hash)));
  }
}

/**
 * `rollforward_difference` (docs/check.md): wallets and assets whose balance at the period's end
 * (the sum of their rows) differs from what their lots hold then (docs/accounting.md "Form 8949,
 * 1099-DA and the roll-forward"): an inflow without a value opened no lot, a disposal went
 * beyond the lots. The tax ledger runs over the history up to the period's end, FIFO with lots
 * per wallet throughout (a finding names a wallet; by year, a report's pool before 2025 and its
 * allocation may spread a difference between wallets otherwise).
 */
import type { Engine } from '../engine/engine.js';
import { identity } from '../engine/rates.js';
import { ledgerRows, loadAssetTable } from '../engine/ledger-rows.js';
import { withSpamResolved } from '../store/transactions.js';
import { quantityText } from '../accounting/quantity.js';
import { RollForward } from '../accounting/rollforward.js';
import type { CheckPeriod } from '../store/checks.js';

export function rollforwardDifferences(
  engine: Engine,
  workspaceId: string,
  p: CheckPeriod,
  examples: number,
): { count: number; examples: Record<string, unknown>[] } {
  const assets = loadAssetTable(engine);
  const roll = new RollForward({ method: 'fifo', scope: 'wallet', assets }, null);
  const filter = withSpamResolved(engine.db, workspaceId, p.endTs === undefined ? {} : { endTs: p.endTs });
  // Of a period, the wallets and assets with rows in it: a difference older than it is an older period's finding.
  const touched = new Set<string>();
  for (const { tx } of ledgerRows(engine, workspaceId, filter, identity)) {
    roll.add(tx);
    if (p.startTs !== undefined && Date.parse(tx.timestamp) / 1000 >= p.startTs) touched.add(`${tx.wallet_id} ${assets.assetOf(tx.chain, tx.token).key}`);
  }
  const off = roll.rows().filter((r) => r.difference.units !== 0n && (p.startTs === undefined || touched.has(`${r.scope} ${r.asset.key}`)));
  return {
    count: off.length,
    examples: off.slice(0, examples).map((r) => ({
      wallet_id: r.scope,
      wallet_label: r.wallet_label,
      asset: r.asset.symbol,
      balance: quantityText(r.balance),
      closing_quantity: quantityText(r.flows.closing.quantity),
      difference: quantityText(r.difference),
    })),
  };
}

/**
 * The transition's allocation at a moment (docs/accounting.md "Scope by year and the transition"):
 * the ledger run pooled up to it, its pool allocated to the wallets' balances (allocate.ts). The
 * lots commands record what this computes, or a hand-made allocation of the same shape.
 */
import type { CostBasis } from '../core/export-values.js';
import { allocate, type AllocatedLot, type AllocationOrder } from './allocate.js';
import type { AssetTable } from './assets.js';
import { type LedgerRow, type TaxOptions, TaxLedger } from './tax-ledger.js';

export * from './allocate.js';

export interface AllocationOptions {
  method: CostBasis;
  order: AllocationOrder;
  assets: AssetTable;
  walletOrder: string[];
  /** How fees of the pooled years were treated (they change lots' costs); default `adjust`. */
  feeTreatment?: TaxOptions['feeTreatment'];
  /** Specific identification's picks of the pooled years (cost_basis `specific`). */
  picks?: TaxOptions['picks'];
}

/** Runs the ledger pooled over rows before `at` and allocates what the pool holds at `at` to the balances at `at`. */
export function allocationAt(rows: Iterable<{ tx: LedgerRow }>, at: string, opts: AllocationOptions): AllocatedLot[] {
  const ledger = new TaxLedger({
    method: opts.method,
    scope: 'universal',
    assets: opts.assets,
    walletOrder: opts.walletOrder,
    ...(opts.feeTreatment === undefined ? {} : { feeTreatment: opts.feeTreatment }),
    ...(opts.picks === undefined ? {} : { picks: opts.picks }),
  });
  for (const { tx } of rows) {
    if (tx.timestamp >= at) break;
    ledger.add(tx, false);
  }
  ledger.end();
  const { pool, balances } = ledger.pooled();
  return allocate(pool, balances, opts.walletOrder, opts.order);
}

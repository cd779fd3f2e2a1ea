/**
 * Lots in the API's terms (docs/lots.md): open lots at a date, the recorded transition
 * allocation, the picks of specific identification, and the bodies that create them. A lot is
 * named by the id of the transaction that acquired it.
 */
import { z } from 'zod';

/** The sequence pooled lots are handed to wallets in (docs/lots.md "Allocation"). */
export const ALLOCATION_ORDERS = ['fifo', 'hifo', 'lifo'] as const;
export type AllocationOrderName = (typeof ALLOCATION_ORDERS)[number];
/** The cost-basis method the pooled years were filed with: which lots are left in the pool. */
export const POOL_METHODS = ['fifo', 'lifo', 'hifo'] as const;
export type PoolMethod = (typeof POOL_METHODS)[number];
/** The first day lots are kept per wallet under the `us` jurisdiction (Rev. Proc. 2024-28). */
export const WALLET_SCOPE_FROM = '2025-01-01';

/** One line of an allocation: a pooled lot, or part of one, assigned to a wallet. */
export interface AllocationLine {
  wallet_id: string;
  wallet_label: string;
  asset: string;
  /** The acquiring transaction's id; null for the part of a balance no pooled lot covered (missing cost basis). */
  lot: string | null;
  /** Exact decimal. */
  quantity: string;
  /** `YYYY-MM-DD`; null with `lot`. */
  date_acquired: string | null;
  /** In the workspace's currency, 2 decimals; null with `lot`. */
  cost_basis: number | null;
}

export interface Allocation {
  /** `YYYY-MM-DD`: the lots left in the pool at the start of this day. */
  at: string;
  /** fifo | hifo | lifo, or `specific` for a hand-made one. */
  order: AllocationOrderName | 'specific';
  /** The method the pooled years were filed with. */
  cost_basis: PoolMethod;
  /** false for a dry run: computed, not recorded. */
  recorded: boolean;
  /** When it was recorded, and by whom (`cli` or the acting key's member id); null for a dry run. */
  recorded_at: string | null;
  recorded_by: string | null;
  lines: AllocationLine[];
}

/** An open lot at the end of a day, in the scope that applies then. */
export interface OpenLot {
  /** null in the pooled scope (before 2025): a pooled lot belongs to no wallet. */
  wallet_id: string | null;
  wallet_label: string | null;
  asset: string;
  lot: string;
  quantity: string;
  date_acquired: string;
  cost_basis: number;
}

export interface OpenLots {
  /** `YYYY-MM-DD`: the lots open at the end of this UTC day. */
  at: string;
  scope: 'universal' | 'wallet';
  /** From 2025, where the allocation came from: `recorded`, or `computed` (fifo order, none recorded). */
  allocation: 'recorded' | 'computed' | null;
  lots: OpenLot[];
}

export interface LotPick {
  disposal_id: string;
  lot: string;
  /** Exact decimal; null = as much of the lot as the disposal still needs. */
  quantity: string | null;
  recorded_at: string;
  recorded_by: string;
  /** Recorded after the disposal's time (docs/lots.md: the IRS accepts identification at or before the sale). */
  after_sale: boolean;
}

export interface PicksDeleted {
  disposal_id: string;
  deleted: number;
}

const text = (what: string) => z.string({ message: `must be ${what}` }).min(1, { message: `must be ${what}` });

export const allocationCreateSchema = z.object({
  workspace_id: z.string().optional(),
  at: z.string().optional(),
  order: z.enum(ALLOCATION_ORDERS, { message: `must be one of ${ALLOCATION_ORDERS.join(', ')}` }).optional(),
  cost_basis: z.enum(POOL_METHODS, { message: `must be one of ${POOL_METHODS.join(', ')}` }).optional(),
  dry_run: z.boolean().optional(),
  replace: z.boolean().optional(),
  /** A hand-made allocation; `line` is the file's line a line came from (field names it), else its place from 1. */
  lines: z
    .array(
      z.object({
        wallet: text('a wallet id or label'),
        lot: text('a lot (the acquiring transaction id)'),
        quantity: text('an exact decimal'),
        line: z.number().int().positive().optional(),
      }),
    )
    .optional(),
});

export const picksCreateSchema = z.object({
  workspace_id: z.string().optional(),
  disposal_id: text('a transaction id'),
  picks: z
    .array(z.object({ lot: text('a lot (the acquiring transaction id)'), quantity: z.string().nullable().optional() }), {
      message: 'must be an array of {lot, quantity}',
    })
    .min(1, { message: 'must name at least one lot' }),
});

/**
 * `txa lots allocate`: the lots left in the pool at the start of `--at` (default 2025-01-01)
 * assigned to the wallets holding the asset then, by an order or by hand (`--specific FILE`),
 * computed and recorded in one transaction (docs/lots.md "Allocation").
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printAllocation } from '../../lot-views.js';
import { TxaError } from '../../../core/errors.js';

export interface AllocateOptions {
  at?: string;
  order?: string;
  costBasis?: string;
  dryRun?: boolean;
  replace?: boolean;
  /** A CSV `wallet,lot,quantity`: a hand-made allocation. */
  specific?: string;
}

export async function run(ctx: Context, opts: AllocateOptions): Promise<void> {
  const ws = ctx.workspace();
  if (opts.specific !== undefined && opts.order !== undefined) {
    throw new TxaError('USAGE_ERROR', '--order and --specific exclude each other: the file says which lots go where', { field: 'order' });
  }
  const lines = opts.specific === undefined ? undefined : (await import('../../allocation-file.js')).readAllocationFile(opts.specific);
  const body = {
    ...(opts.at === undefined ? {} : { at: opts.at }),
    ...(opts.order === undefined ? {} : { order: opts.order }),
    ...(opts.costBasis === undefined ? {} : { cost_basis: opts.costBasis }),
    ...(opts.dryRun ? { dry_run: true } : {}),
    ...(opts.replace ? { replace: true } : {}),
    ...(lines ? { lines } : {}),
  };
  const allocation = await (await ctx.backend()).createLotAllocation(ws, body);
  ctx.out.result(allocation, () => printAllocation(ctx.out, allocation));
}

export function register(parent: Command): void {
  parent
    .command('allocate')
    .description('assign the lots left in the pool at the start of --at to the wallets holding each asset then, and record it (once; --replace)')
    .option('--at <date>', 'YYYY-MM-DD: the pool at the start of this day (default 2025-01-01)')
    .option('--order <order>', 'which pooled lots go first: fifo (default), hifo or lifo; wallets are served in the order they were added')
    .option('--cost-basis <method>', 'the method the pooled years were filed with, which decides the lots left: fifo (default), lifo or hifo')
    .option('--specific <file>', 'a hand-made allocation: CSV wallet,lot,quantity (wallet a label or id, lot the acquiring transaction id)')
    .option('--dry-run', 'compute and print it; record nothing')
    .option('--replace', 'replace the recorded allocation')
    .action(action<AllocateOptions>((ctx, flags) => run(ctx, flags)));
}

/** `txa transfers unmatch ID`: an own transfer undone, named by a leg or by its id. */
import type { Command } from 'commander';
import type { Backend } from '../../../core/backend.js';
import { TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface UnmatchOptions {
  /** A leg (transaction id) or the transfer id (trf_…). */
  id: string;
}

/** The transfer a leg belongs to; TRANSFER_NOT_FOUND when it is no leg. */
async function transferIdOf(backend: Backend, ws: string, id: string): Promise<string> {
  if (id.startsWith('trf_')) return id;
  const tx = await backend.getTransaction(ws, id);
  if (!tx.transfer) {
    throw new TxaError('TRANSFER_NOT_FOUND', `transaction ${id} is not a leg of an own transfer; nothing to unmatch`, {
      field: 'tx_id',
      hint: 'List matched transfers with: txa transfers list --status matched',
    });
  }
  return tx.transfer.id;
}

export async function run(ctx: Context, opts: UnmatchOptions): Promise<void> {
  const ws = ctx.workspace();
  const backend = await ctx.backend();
  const deleted = await backend.deleteTransfer(ws, await transferIdOf(backend, ws, opts.id));
  ctx.out.result(deleted, () => ctx.out.line(`transfer ${deleted.id} unmatched`));
}

export function register(parent: Command): void {
  parent
    .command('unmatch')
    .description('undo an own transfer: its legs become ordinary rows again and are never matched automatically again')
    .argument('<id>', 'a leg (transaction id) or the transfer id (trf_…)')
    .action(action((ctx, _flags, [id]) => run(ctx, { id: id! })));
}

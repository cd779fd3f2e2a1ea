import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';

export function registerUnmatch(parent: Command): void {
  parent
    .command('unmatch')
    .description('undo an own transfer: its legs become ordinary rows again and are never matched automatically again')
    .argument('<id>', 'a leg (transaction id) or the transfer id (trf_…)')
    .action(
      action(async (ctx, _o, [id]) => {
        const ws = ctx.workspace();
        const backend = await ctx.backend();
        let transferId = id!;
        if (!id!.startsWith('trf_')) {
          const tx = await backend.getTransaction(ws, id!);
          if (!tx.transfer) {
            throw new TxaError('TRANSFER_NOT_FOUND', `transaction ${id} is not a leg of an own transfer; nothing to unmatch`, {
              field: 'tx_id',
              hint: 'List matched transfers with: txa transfers list --status matched',
            });
          }
          transferId = tx.transfer.id;
        }
        const deleted = await backend.deleteTransfer(ws, transferId);
        if (ctx.out.json) ctx.out.body({ success: true, data: deleted });
        else ctx.out.line(`transfer ${deleted.id} unmatched`);
      }),
    );
}

import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';
import { printTransfer } from '../../transfer-views.js';

export function registerMatch(parent: Command): void {
  parent
    .command('match')
    .description(
      'match two transactions as the legs of one own transfer (a proposed bridge, or any pair); --auto matches internal transfers of the whole ledger',
    )
    .argument('[tx_id]', 'one leg (an outflow or an inflow)')
    .argument('[counterpart_id]', 'the other leg')
    .option('--auto', 'match the internal transfers of the whole workspace, as an import does (local only)')
    .action(
      action<{ auto?: boolean }>(async (ctx, o, [txId, counterpartId]) => {
        const ws = ctx.workspace();
        if (o.auto) {
          if (txId !== undefined) throw new TxaError('USAGE_ERROR', '--auto takes no transaction ids', { field: 'auto' });
          const local = await ctx.local('transfers match --auto');
          const { autoMatch } = await import('../../../engine/transfers.js');
          const legs = local.engine.write(() => autoMatch(local.engine, ws));
          if (ctx.out.json) ctx.out.body({ success: true, data: { legs_matched: legs } });
          else ctx.out.line(`${legs} ${legs === 1 ? 'leg' : 'legs'} of own transfers matched`);
          return;
        }
        if (txId === undefined || counterpartId === undefined) {
          throw new TxaError('USAGE_ERROR', 'pass TX_ID and COUNTERPART_ID, or --auto', { field: txId === undefined ? 'tx_id' : 'counterpart_id' });
        }
        const transfer = await (await ctx.backend()).createTransfer(ws, { transaction_id: txId, counterpart_id: counterpartId });
        if (ctx.out.json) ctx.out.body({ success: true, data: transfer });
        else printTransfer(ctx.out, transfer);
      }),
    );
}

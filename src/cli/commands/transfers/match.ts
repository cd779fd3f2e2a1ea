/** `txa transfers match TX_ID COUNTERPART_ID`, or `--auto` over the whole workspace (local only). */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printTransfer } from '../../transfer-views.js';

export interface MatchOptions {
  txId?: string;
  counterpartId?: string;
  auto?: boolean;
}

/** As an import matches internal transfers, on every row of the workspace. */
async function autoMatch(ctx: Context, ws: string): Promise<void> {
  const transfers = await (await ctx.local('transfers match --auto')).transfers();
  const legs = transfers.autoMatch(ws);
  ctx.out.result({ legs_matched: legs }, () => ctx.out.line(`${legs} ${legs === 1 ? 'leg' : 'legs'} of own transfers matched`));
}

export async function run(ctx: Context, { txId, counterpartId, auto }: MatchOptions): Promise<void> {
  const ws = ctx.workspace();
  if (auto) {
    if (txId !== undefined) throw new TxaError('USAGE_ERROR', '--auto takes no transaction ids', { field: 'auto' });
    return autoMatch(ctx, ws);
  }
  if (txId === undefined || counterpartId === undefined) {
    throw new TxaError('USAGE_ERROR', 'pass TX_ID and COUNTERPART_ID, or --auto', { field: txId === undefined ? 'tx_id' : 'counterpart_id' });
  }
  const transfer = await (await ctx.backend()).createTransfer(ws, { transaction_id: txId, counterpart_id: counterpartId });
  ctx.out.result(transfer, () => printTransfer(ctx.out, transfer));
}

export function register(parent: Command): void {
  parent
    .command('match')
    .description(
      'match two transactions as the legs of one own transfer (a proposed bridge, or any pair); --auto matches internal transfers of the whole ledger',
    )
    .argument('[tx_id]', 'one leg (an outflow or an inflow)')
    .argument('[counterpart_id]', 'the other leg')
    .option('--auto', 'match the internal transfers of the whole workspace, as an import does (local only)')
    .action(
      action<{ auto?: boolean }, [string | undefined, string | undefined]>((ctx, flags, [txId, counterpartId]) => run(ctx, { ...flags, txId, counterpartId })),
    );
}

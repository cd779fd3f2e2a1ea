/** `txa lots unpick DISPOSAL_TX_ID`: removes a disposal's picks (docs/lots.md "Specific identification"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface UnpickOptions {
  disposalId: string;
}

export async function run(ctx: Context, opts: UnpickOptions): Promise<void> {
  const ws = ctx.workspace();
  const res = await (await ctx.backend()).deleteLotPicks(ws, opts.disposalId);
  ctx.out.result(res, () => ctx.out.line(`${res.deleted} ${res.deleted === 1 ? 'pick' : 'picks'} of ${res.disposal_id} removed`));
}

export function register(parent: Command): void {
  parent
    .command('unpick')
    .description("remove a disposal's picks; it then takes lots by the report's method")
    .argument('<disposal_tx_id>', 'the disposal')
    .action(action<Record<string, never>, [string]>((ctx, _flags, [disposalId]) => run(ctx, { disposalId: disposalId! })));
}

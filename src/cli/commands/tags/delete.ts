import type { Command } from 'commander';
import { action, confirm } from '../../run.js';

export function registerDelete(parent: Command): void {
  parent
    .command('delete')
    .description('delete a tag; it is also removed from every transaction')
    .argument('<id>', 'tag id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action<{ yes?: boolean }>(async (ctx, opts, [id]) => {
        const ws = ctx.workspace();
        if (!(await confirm(opts.yes, `Delete tag ${id} and remove it from every transaction?`))) {
          ctx.out.notice('Cancelled.');
          process.exitCode = 1;
          return;
        }
        const result = await (await ctx.backend()).deleteTag(ws, id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: result });
        else ctx.out.notice(`Deleted tag ${result.id}.`);
      }),
    );
}

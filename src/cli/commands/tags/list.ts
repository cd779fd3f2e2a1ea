import type { Command } from 'commander';
import { action } from '../../run.js';
import { printTags } from '../../views.js';

export function registerList(parent: Command): void {
  parent
    .command('list')
    .description('tags of the workspace, by name')
    .action(
      action(async (ctx) => {
        const ws = ctx.workspace();
        const tags = await (await ctx.backend()).listTags(ws);
        if (ctx.out.json) ctx.out.body({ success: true, data: tags });
        else printTags(ctx.out, tags);
      }),
    );
}

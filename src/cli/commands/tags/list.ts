import type { Command } from 'commander';
import { action } from '../../run.js';
import { printTags } from '../../views.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';

export function registerList(parent: Command): void {
  withPageFlags(parent.command('list').description('tags of the workspace, by name')).action(
    action<PageFlags>(async (ctx, o) => {
      const ws = ctx.workspace();
      const body = listPage(await (await ctx.backend()).listTags(ws), o);
      if (ctx.out.json) ctx.out.body(body);
      else printTags(ctx.out, body.data);
    }),
  );
}

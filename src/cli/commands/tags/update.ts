import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';
import { printTag } from '../../views.js';

interface Opts {
  name?: string;
  type?: string;
  color?: string;
  description?: string;
}

export function registerUpdate(parent: Command): void {
  parent
    .command('update')
    .description('change a tag')
    .argument('<id>', 'tag id')
    .option('--name <name>', 'new name')
    .option('--type <type>', 'income, expense or neutral')
    .option('--color <hex>', 'colour #RRGGBB')
    .option('--description <text>', 'up to 200 characters ("" clears it)')
    .action(
      action<Opts>(async (ctx, opts, [id]) => {
        const ws = ctx.workspace();
        const body: Record<string, unknown> = {};
        for (const key of ['name', 'type', 'color'] as const) if (opts[key] !== undefined) body[key] = opts[key];
        if (opts.description !== undefined) body.description = opts.description === '' ? null : opts.description;
        if (Object.keys(body).length === 0) {
          throw new TxaError('USAGE_ERROR', 'nothing to change: pass --name, --type, --color or --description', { field: 'name' });
        }
        const tag = await (await ctx.backend()).updateTag(ws, id!, body);
        if (ctx.out.json) ctx.out.body({ success: true, data: tag });
        else printTag(ctx.out, tag);
      }),
    );
}

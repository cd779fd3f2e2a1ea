import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';
import { printTag } from '../../views.js';
import { tagResolver } from '../../tag-flags.js';

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
    .argument('<id>', 'tag id or name')
    .option('--name <name>', 'new name')
    .option('--type <type>', 'income, expense or neutral')
    .option('--color <hex>', 'colour #RRGGBB')
    .option('--description <text>', 'up to 200 characters ("" clears it)')
    .action(
      action<Opts>(async (ctx, opts, [ref]) => {
        const ws = ctx.workspace();
        const body: Record<string, unknown> = {};
        for (const key of ['name', 'type', 'color'] as const) if (opts[key] !== undefined) body[key] = opts[key];
        if (opts.description !== undefined) body.description = opts.description === '' ? null : opts.description;
        if (Object.keys(body).length === 0) {
          throw new TxaError('USAGE_ERROR', 'nothing to change: pass --name, --type, --color or --description', { field: 'name' });
        }
        const backend = await ctx.backend();
        const [id] = await tagResolver(backend, ws)([ref!], 'id');
        const tag = await backend.updateTag(ws, id!, body);
        if (ctx.out.json) ctx.out.body({ success: true, data: tag });
        else printTag(ctx.out, tag);
      }),
    );
}

/** `txa tags update ID`: a tag's name, type, colour or description. */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { tagResolver } from '../../tag-flags.js';
import { printTag } from '../../views.js';

export interface UpdateOptions {
  /** The tag, by id or name. */
  ref: string;
  name?: string;
  type?: string;
  color?: string;
  description?: string;
}

/** The PATCH body of the given flags; `--description ""` clears it. */
function patchOf(opts: UpdateOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of ['name', 'type', 'color'] as const) if (opts[key] !== undefined) body[key] = opts[key];
  if (opts.description !== undefined) body.description = opts.description === '' ? null : opts.description;
  if (Object.keys(body).length === 0) {
    throw new TxaError('USAGE_ERROR', 'nothing to change: pass --name, --type, --color or --description', { field: 'name' });
  }
  return body;
}

export async function run(ctx: Context, opts: UpdateOptions): Promise<void> {
  const ws = ctx.workspace();
  const body = patchOf(opts);
  const backend = await ctx.backend();
  const [id] = await tagResolver(backend, ws)([opts.ref], 'id');
  const tag = await backend.updateTag(ws, id!, body);
  ctx.out.result(tag, () => printTag(ctx.out, tag));
}

export function register(parent: Command): void {
  parent
    .command('update')
    .description('change a tag')
    .argument('<id>', 'tag id or name')
    .option('--name <name>', 'new name')
    .option('--type <type>', 'income, expense or neutral')
    .option('--color <hex>', 'colour #RRGGBB')
    .option('--description <text>', 'up to 200 characters ("" clears it)')
    .action(action<Omit<UpdateOptions, 'ref'>>((ctx, flags, [ref]) => run(ctx, { ...flags, ref: ref! })));
}

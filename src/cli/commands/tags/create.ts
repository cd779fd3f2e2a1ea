/** `txa tags create`: a tag, its name and type asked for on a TTY when not given. */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { TAG_TYPES } from '../../../core/types.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printTag } from '../../views.js';

export interface CreateOptions {
  name?: string;
  type?: string;
  color?: string;
  description?: string;
}

/** On a TTY a missing name or type is asked for; otherwise it is a usage error naming the flag. */
async function ask(opts: CreateOptions): Promise<CreateOptions> {
  if (opts.name !== undefined && opts.type !== undefined) return opts;
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    const flag = opts.name === undefined ? 'name' : 'type';
    throw new TxaError('USAGE_ERROR', `--${flag} is required when not running interactively`, { field: flag });
  }
  const { input, select } = await import('@inquirer/prompts');
  const name = opts.name ?? (await input({ message: 'Tag name', validate: (v) => (v.trim().length >= 1 && v.trim().length <= 50) || '1 to 50 characters' }));
  const type = opts.type ?? (await select({ message: 'Tag type', choices: TAG_TYPES.map((t) => ({ value: t })) }));
  return { ...opts, name, type };
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const ws = ctx.workspace();
  const o = await ask(opts);
  const backend = await ctx.backend();
  const tag = await backend.createTag(ws, { workspace_id: ws, name: o.name, type: o.type, color: o.color, description: o.description });
  ctx.out.result(tag, () => printTag(ctx.out, tag));
}

export function register(parent: Command): void {
  parent
    .command('create')
    .description('create a tag')
    .option('--name <name>', 'tag name, 1 to 50 characters, unique in the workspace')
    .option('--type <type>', 'income, expense or neutral')
    .option('--color <hex>', 'colour #RRGGBB (default by type)')
    .option('--description <text>', 'up to 200 characters')
    .action(action<CreateOptions>((ctx, flags) => run(ctx, flags)));
}

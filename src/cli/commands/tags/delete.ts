/** `txa tags delete ID`: a tag, removed from every transaction too, after a confirmation that names it. */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { resolveTagRefs } from '../../../core/tag-refs.js';
import type { Tag } from '../../../core/types.js';
import type { Context } from '../../context.js';
import { terminalSafe } from '../../output.js';
import { action, confirmOrCancel, requireAnswerable } from '../../run.js';

export interface DeleteOptions {
  /** The tag, by id or name. */
  ref: string;
  yes?: boolean;
}

/** The prompt names the tag and how many transactions lose it, not only its id. */
function question(tags: Tag[], id: string): string {
  const tag = tags.find((t) => t.id === id);
  if (!tag) throw new TxaError('TAG_NOT_FOUND', `tag ${id} not found`, { hint: 'List tags with: txa tags list' });
  const name = `'${terminalSafe(tag.name)}' (${id})`;
  if (tag.usage_count === 0) return `Delete tag ${name}? No transaction carries it.`;
  return `Delete tag ${name} and remove it from the ${tag.usage_count === 1 ? 'transaction that carries' : `${tag.usage_count} transactions that carry`} it?`;
}

export async function run(ctx: Context, opts: DeleteOptions): Promise<void> {
  requireAnswerable(opts.yes);
  const ws = ctx.workspace();
  const backend = await ctx.backend();
  // One list names the tag and asks about it (remotely, one request of the hour's budget).
  const tags = await backend.listTags(ws);
  const [id] = resolveTagRefs(tags, [opts.ref], 'id');
  if (!(await confirmOrCancel(ctx.out, opts.yes, question(tags, id!)))) return;
  const result = await backend.deleteTag(ws, id!);
  ctx.out.result(result, () => ctx.out.notice(`Deleted tag ${result.id}.`));
}

export function register(parent: Command): void {
  parent
    .command('delete')
    .description('delete a tag; it is also removed from every transaction')
    .argument('<id>', 'tag id or name')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action<{ yes?: boolean }>((ctx, flags, [ref]) => run(ctx, { ...flags, ref: ref! })));
}

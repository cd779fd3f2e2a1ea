/** `txa tx update ID`: notes, tags, the fiat value and the spam mark in one PATCH. */
import type { Command } from 'commander';
import type { Backend } from '../../../core/backend.js';
import { TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { action, booleanFlag } from '../../run.js';
import { tagResolver } from '../../tag-flags.js';
import { printTransaction } from '../../views.js';

export interface UpdateOptions {
  id: string;
  notes?: string;
  fiatValue?: string;
  spam?: string;
  addTag: string[];
  removeTag: string[];
}

interface Patch {
  notes?: string | null;
  tag_ids?: string[];
  fiat_value?: unknown;
  spam?: unknown;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The API's tag_ids replaces the set: the current tags, plus --add-tag, less --remove-tag. */
async function tagSet(backend: Backend, ws: string, o: UpdateOptions): Promise<string[]> {
  const resolve = tagResolver(backend, ws);
  const add = await resolve(o.addTag, 'add-tag');
  // The PATCH carries the set left, so an unknown id would vanish from it unnoticed.
  const remove = await resolve(o.removeTag, 'remove-tag', true);
  const current = await backend.getTransaction(ws, o.id);
  const set = new Set(current.tags.map((t) => t.id));
  for (const t of add) set.add(t);
  for (const t of remove) set.delete(t);
  return [...set];
}

export async function run(ctx: Context, o: UpdateOptions): Promise<void> {
  const ws = ctx.workspace();
  if (o.notes === undefined && o.addTag.length === 0 && o.removeTag.length === 0 && o.fiatValue === undefined && o.spam === undefined) {
    throw new TxaError('USAGE_ERROR', 'nothing to change: pass --notes, --add-tag, --remove-tag, --fiat-value or --spam', { field: 'notes' });
  }
  const body: Patch = {};
  if (o.fiatValue !== undefined) {
    // core/schemas.js loads zod: only when the flag is given, not for every `txa tx` command.
    const { fiatValueOfText } = await import('../../../core/schemas.js');
    body.fiat_value = o.fiatValue === 'none' ? null : fiatValueOfText(o.fiatValue);
  }
  if (o.spam !== undefined) body.spam = booleanFlag(o.spam);
  const backend = await ctx.backend();
  if (o.notes !== undefined) body.notes = o.notes === '' ? null : o.notes;
  if (o.addTag.length || o.removeTag.length) body.tag_ids = await tagSet(backend, ws, o);
  const tx = await backend.updateTransaction(ws, o.id, body);
  ctx.out.result(tx, () => printTransaction(ctx.out, tx));
}

export function register(parent: Command): void {
  parent
    .command('update')
    .description('change notes, tags, the fiat value and the spam mark in one call')
    .argument('<id>', 'transaction id')
    .option('--notes <text>', 'notes ("" clears them)')
    .option('--add-tag <tag>', 'add a tag, by id or name (repeatable)', collect, [])
    .option('--remove-tag <tag>', 'remove a tag, by id or name (repeatable)', collect, [])
    .option(
      '--fiat-value <value>',
      'the value in the base currency by hand, e.g. 123.45 (source `manual`, never overwritten by an import or price fill); none clears it',
    )
    .option('--spam <bool>', 'true: a spam row, left out of lists, totals and reports unless --include-spam; false: not spam')
    .action(action<Omit<UpdateOptions, 'id'>>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}

import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';
import { printTransaction } from '../../views.js';
import { tagResolver } from '../../tag-flags.js';

interface Opts {
  notes?: string;
  addTag: string[];
  removeTag: string[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerUpdate(parent: Command): void {
  parent
    .command('update')
    .description('change notes and tags in one call')
    .argument('<id>', 'transaction id')
    .option('--notes <text>', 'notes ("" clears them)')
    .option('--add-tag <tag>', 'add a tag, by id or name (repeatable)', collect, [])
    .option('--remove-tag <tag>', 'remove a tag, by id or name (repeatable)', collect, [])
    .action(
      action<Opts>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        if (o.notes === undefined && o.addTag.length === 0 && o.removeTag.length === 0) {
          throw new TxaError('USAGE_ERROR', 'nothing to change: pass --notes, --add-tag or --remove-tag', { field: 'notes' });
        }
        const backend = await ctx.backend();
        const body: { notes?: string | null; tag_ids?: string[] } = {};
        if (o.notes !== undefined) body.notes = o.notes === '' ? null : o.notes;
        if (o.addTag.length || o.removeTag.length) {
          // The API's tag_ids replaces the set: start from the current tags.
          const resolve = tagResolver(backend, ws);
          const add = await resolve(o.addTag, 'add-tag');
          const remove = await resolve(o.removeTag, 'remove-tag');
          const current = await backend.getTransaction(ws, id!);
          const set = new Set(current.tags.map((t) => t.id));
          for (const t of add) set.add(t);
          for (const t of remove) set.delete(t);
          body.tag_ids = [...set];
        }
        const tx = await backend.updateTransaction(ws, id!, body);
        if (ctx.out.json) ctx.out.body({ success: true, data: tx });
        else printTransaction(ctx.out, tx);
      }),
    );
}

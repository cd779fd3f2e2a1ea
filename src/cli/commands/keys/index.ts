import type { Command } from 'commander';
import { action, choice, confirm } from '../../run.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';

const ACCESS = ['read', 'write', 'full'] as const;

// Three short verbs over the local ledger, kept together as gh keeps small nouns.
export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('API keys of the workspace for `txa serve` (local only)');

  keys
    .command('create')
    .description('create a key; it is printed once and stored only as a hash')
    .option('--name <name>', 'a name to recognise it by')
    .option('--access <level>', 'read (GET only), write (also tags, notes, attachments) or full (also exports, webhooks)', 'full')
    .action(
      action<{ name?: string; access: string }>(async (ctx, o) => {
        const access = choice('access', o.access, ACCESS);
        const ws = ctx.workspace();
        const local = await ctx.local('keys create');
        const { createKey } = await import('../../../engine/keys.js');
        const { key, record } = createKey(local.engine, ws, { name: o.name, access });
        if (ctx.out.json) ctx.out.body({ success: true, data: { ...record, key } });
        else {
          ctx.out.line(key);
          ctx.out.notice(`Created ${record.access} key ${record.id}. Store it now: it is not shown again.`);
        }
      }),
    );

  withPageFlags(keys.command('list').description('keys of the workspace (never the keys themselves)')).action(
    action<PageFlags>(async (ctx, o) => {
      const ws = ctx.workspace();
      const local = await ctx.local('keys list');
      const { listKeys } = await import('../../../engine/keys.js');
      const body = listPage(listKeys(local.engine, ws), o);
      if (ctx.out.json) ctx.out.body(body);
      else
        ctx.out.table(
          [
            { header: 'ID' },
            { header: 'NAME', fit: 'end' },
            { header: 'ACCESS' },
            { header: 'KEY' },
            { header: 'CREATED', fit: 'date', drop: 2 },
            { header: 'REVOKED', fit: 'date', drop: 1 },
          ],
          body.data.map((k) => [k.id, k.name, k.access, `${k.prefix}…`, k.created_at, k.revoked_at]),
        );
    }),
  );

  keys
    .command('revoke')
    .description('revoke a key; requests with it fail at once')
    .argument('<id>', 'key id (from txa keys list)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action<{ yes?: boolean }>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        const local = await ctx.local('keys revoke');
        if (!(await confirm(o.yes, `Revoke API key ${id}? Clients using it stop working at once.`))) {
          ctx.out.notice('Cancelled.');
          process.exitCode = 1;
          return;
        }
        const { revokeKey } = await import('../../../engine/keys.js');
        const record = revokeKey(local.engine, ws, id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: record });
        else ctx.out.notice(`Revoked key ${record.id}.`);
      }),
    );
}

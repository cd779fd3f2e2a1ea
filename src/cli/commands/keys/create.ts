/** `txa keys create`: an API key for `txa serve`, printed once (docs/server.md "Keys"); local only. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action, choice } from '../../run.js';

const ACCESS = ['read', 'write', 'full'] as const;

export interface CreateOptions {
  name?: string;
  access: string;
  /** The member the key belongs to (docs/server.md "Teams"); default the workspace's owner. */
  member?: string;
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const access = choice('access', opts.access, ACCESS);
  const ws = ctx.workspace();
  const keys = await (await ctx.local('keys create')).keys();
  const { key, record } = keys.create(ws, { name: opts.name, access, member_id: opts.member });
  if (ctx.out.json) ctx.out.body({ success: true, data: { ...record, key } });
  else {
    // The key alone on stdout, for a pipe; the rest is for the reader.
    ctx.out.line(key);
    ctx.out.notice(`Created ${record.access} key ${record.id} of member ${record.member_id}. Store it now: it is not shown again.`);
  }
}

export function register(parent: Command): void {
  parent
    .command('create')
    .description('create a key; it is printed once and stored only as a hash')
    .option('--name <name>', 'a name to recognise it by')
    .option('--access <level>', 'read (GET only), write (also tags, notes, attachments) or full (also exports, webhooks)', 'full')
    .option('--member <id>', "the member the key belongs to and acts as, with the member's role (default: the workspace's owner, an admin)")
    .action(action<CreateOptions>((ctx, flags) => run(ctx, flags)));
}

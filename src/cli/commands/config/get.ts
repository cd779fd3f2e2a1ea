/** `txa config get KEY`: a value of the profile; nothing and exit 1 when it is not set. */
import type { Command } from 'commander';
import { PROFILE_KEYS, readProfile } from '../../config.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { keyArg } from './profile-keys.js';

export interface GetOptions {
  key: string;
}

export async function run(ctx: Context, opts: GetOptions): Promise<void> {
  const k = keyArg(opts.key);
  const value = readProfile(ctx.profileName)[k];
  if (ctx.out.json) ctx.out.body({ success: true, data: { key: k, value: value ?? null } });
  else if (value !== undefined) ctx.out.line(value);
  if (value === undefined) process.exitCode = 1;
}

export function register(parent: Command): void {
  parent
    .command('get')
    .argument('<key>', PROFILE_KEYS.join(', '))
    .description('print a value of the profile (nothing, exit 1, when it is not set)')
    .action(action((ctx, _flags, [key]) => run(ctx, { key: key! })));
}

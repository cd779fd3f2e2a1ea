/** `txa config unset KEY`: a value removed from the profile. */
import type { Command } from 'commander';
import { PROFILE_KEYS, writeProfileValue } from '../../config.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { keyArg } from './profile-keys.js';

export interface UnsetOptions {
  key: string;
}

export async function run(ctx: Context, opts: UnsetOptions): Promise<void> {
  const k = keyArg(opts.key);
  await writeProfileValue(ctx.profileName, k, undefined);
  ctx.out.result({ key: k, value: null }, () => ctx.out.notice(`Removed ${k} from profile '${ctx.profileName}'.`));
}

export function register(parent: Command): void {
  parent
    .command('unset')
    .argument('<key>', PROFILE_KEYS.join(', '))
    .description('remove a value from the profile')
    .action(action((ctx, _flags, [key]) => run(ctx, { key: key! })));
}

/** `txa config list`: the values of the profile, API keys masked. */
import type { Command } from 'commander';
import { PROFILE_KEYS, readProfile } from '../../config.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { isSecret, maskKey } from './profile-keys.js';

export type ListOptions = Record<string, never>;

export async function run(ctx: Context, _opts: ListOptions): Promise<void> {
  const profile = readProfile(ctx.profileName);
  const shown = Object.fromEntries(PROFILE_KEYS.filter((k) => profile[k] !== undefined).map((k) => [k, isSecret(k) ? maskKey(profile[k]!) : profile[k]!]));
  ctx.out.result({ profile: ctx.profileName, values: shown }, () =>
    ctx.out.table([{ header: 'KEY' }, { header: 'VALUE', fit: 'middle' }], Object.entries(shown)),
  );
}

export function register(parent: Command): void {
  parent
    .command('list')
    .description('values of the profile (the API key masked)')
    .action(action((ctx) => run(ctx, {})));
}

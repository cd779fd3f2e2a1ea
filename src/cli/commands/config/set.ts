/** `txa config set KEY VALUE`: a value of the profile, written to the config file (mode 0600). */
import type { Command } from 'commander';
import { configPath, PROFILE_KEYS, requireHttpUrl, writeProfileValue } from '../../config.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { isSecret, keyArg, maskKey } from './profile-keys.js';

export interface SetOptions {
  key: string;
  value: string;
}

export async function run(ctx: Context, opts: SetOptions): Promise<void> {
  const k = keyArg(opts.key);
  if (k === 'base_url' || k === 'public_url') requireHttpUrl(opts.value, k, 'value');
  await writeProfileValue(ctx.profileName, k, opts.value);
  ctx.out.result({ key: k, value: isSecret(k) ? maskKey(opts.value) : opts.value }, () =>
    ctx.out.notice(`Set ${k} in profile '${ctx.profileName}' (${configPath()}).`),
  );
}

export function register(parent: Command): void {
  parent
    .command('set')
    .argument('<key>', PROFILE_KEYS.join(', '))
    .argument('<value>')
    .description('set a value of the profile')
    .action(action((ctx, _flags, [key, value]) => run(ctx, { key: key!, value: value! })));
}

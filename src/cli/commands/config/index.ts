import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';
import { PROFILE_KEYS, configPath, isProfileKey, readProfile, requireHttpUrl, writeProfileValue, type ProfileKey } from '../../config.js';

function keyArg(key: string): ProfileKey {
  if (isProfileKey(key)) return key;
  throw new TxaError('USAGE_ERROR', `unknown config key '${key}'; keys: ${PROFILE_KEYS.join(', ')}`, { field: 'key' });
}

/** The profile's API keys (txa's own and the explorer's), which output shows masked. */
const isSecret = (key: ProfileKey) => key.endsWith('api_key');

/** `config list` shows only the start of a key. */
export function maskKey(value: string): string {
  return value.length <= 13 ? '****' : `${value.slice(0, 13)}…`;
}

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description(`profile settings (${PROFILE_KEYS.join(', ')}) in the config file, mode 0600`)
    .addHelpText('after', '\nThe profile is --profile NAME, else TXA_PROFILE, else "default".');

  config
    .command('get')
    .argument('<key>', PROFILE_KEYS.join(', '))
    .description('print a value of the profile (nothing, exit 1, when it is not set)')
    .action(
      action(async (ctx, _o, [key]) => {
        const k = keyArg(key!);
        const value = readProfile(ctx.profileName)[k];
        if (ctx.out.json) ctx.out.body({ success: true, data: { key: k, value: value ?? null } });
        else if (value !== undefined) ctx.out.line(value);
        if (value === undefined) process.exitCode = 1;
      }),
    );

  config
    .command('set')
    .argument('<key>', PROFILE_KEYS.join(', '))
    .argument('<value>')
    .description('set a value of the profile')
    .action(
      action(async (ctx, _o, [key, value]) => {
        const k = keyArg(key!);
        if (k === 'base_url' || k === 'public_url') requireHttpUrl(value!, k, 'value');
        await writeProfileValue(ctx.profileName, k, value!);
        if (ctx.out.json) ctx.out.body({ success: true, data: { key: k, value: isSecret(k) ? maskKey(value!) : value } });
        else ctx.out.notice(`Set ${k} in profile '${ctx.profileName}' (${configPath()}).`);
      }),
    );

  config
    .command('unset')
    .argument('<key>', PROFILE_KEYS.join(', '))
    .description('remove a value from the profile')
    .action(
      action(async (ctx, _o, [key]) => {
        const k = keyArg(key!);
        await writeProfileValue(ctx.profileName, k, undefined);
        if (ctx.out.json) ctx.out.body({ success: true, data: { key: k, value: null } });
        else ctx.out.notice(`Removed ${k} from profile '${ctx.profileName}'.`);
      }),
    );

  config
    .command('list')
    .description('values of the profile (the API key masked)')
    .action(
      action(async (ctx) => {
        const profile = readProfile(ctx.profileName);
        const shown = Object.fromEntries(
          PROFILE_KEYS.filter((k) => profile[k] !== undefined).map((k) => [k, isSecret(k) ? maskKey(profile[k]!) : profile[k]!]),
        );
        if (ctx.out.json) ctx.out.body({ success: true, data: { profile: ctx.profileName, values: shown } });
        else ctx.out.table([{ header: 'KEY' }, { header: 'VALUE', fit: 'middle' }], Object.entries(shown));
      }),
    );
}

import type { Command } from 'commander';
import { PROFILE_KEYS } from '../../config.js';
import * as get from './get.js';
import * as list from './list.js';
import * as set from './set.js';
import * as unset from './unset.js';

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description(`profile settings (${PROFILE_KEYS.join(', ')}) in the config file, mode 0600`)
    .addHelpText('after', '\nThe profile is --profile NAME, else TXA_PROFILE, else "default".');
  get.register(config);
  set.register(config);
  unset.register(config);
  list.register(config);
}

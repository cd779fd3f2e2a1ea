import type { Command } from 'commander';
import * as create from './create.js';
import * as list from './list.js';
import * as revoke from './revoke.js';

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('API keys of the workspace for `txa serve` (local only)');
  create.register(keys);
  list.register(keys);
  revoke.register(keys);
}

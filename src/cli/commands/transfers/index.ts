import type { Command } from 'commander';
import * as list from './list.js';
import * as match from './match.js';
import * as unmatch from './unmatch.js';

export function registerTransfers(program: Command): void {
  const transfers = program
    .command('transfers')
    .description('own transfers between wallets of the workspace: matched, proposed (bridges), confirmed or unmatched (docs/accounting.md)');
  list.register(transfers);
  match.register(transfers);
  unmatch.register(transfers);
}

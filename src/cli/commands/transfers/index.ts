import type { Command } from 'commander';
import { registerList } from './list.js';
import { registerMatch } from './match.js';
import { registerUnmatch } from './unmatch.js';

export function registerTransfers(program: Command): void {
  const transfers = program
    .command('transfers')
    .description('own transfers between wallets of the workspace: matched, proposed (bridges), confirmed or unmatched (docs/accounting.md)');
  registerList(transfers);
  registerMatch(transfers);
  registerUnmatch(transfers);
}

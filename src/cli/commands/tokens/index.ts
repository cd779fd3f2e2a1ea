/**
 * `txa tokens spam|unspam|list` (docs/sync.md, "Spam"): the user's verdicts on tokens, which turn
 * the flag of the token's rows and of its future imports and syncs. Local only, like `rules`.
 */
import type { Command } from 'commander';
import * as list from './list.js';
import * as spam from './spam.js';
import * as unspam from './unspam.js';

export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('mark tokens as spam or not spam, for every row of them (local only; docs/sync.md)');
  spam.register(tokens);
  unspam.register(tokens);
  list.register(tokens);
}

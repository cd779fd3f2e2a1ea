/** `txa tokens unspam CHAIN:ADDRESS...`: rows flagged for the token's sake are unflagged, and the token checks skip it. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { markTokens, TOKEN_ARGUMENT } from './spam.js';

export interface UnspamOptions {
  /** CHAIN:ADDRESS as given. */
  tokens: string[];
}

export function run(ctx: Context, opts: UnspamOptions): Promise<void> {
  return markTokens(ctx, opts.tokens, false);
}

export function register(parent: Command): void {
  parent
    .command('unspam')
    .description("mark tokens as not spam: rows flagged for the token's sake are unflagged, and the token checks skip it from now on")
    .argument(...TOKEN_ARGUMENT)
    .action(action<Record<string, never>, [string[]]>((ctx, _flags, [tokens]) => run(ctx, { tokens })));
}

/** `txa tokens spam CHAIN:ADDRESS...`: the token's rows are flagged, now and in future imports and syncs. */
import type { Command } from 'commander';
import { parseTokenRef } from '../../../core/token-ref.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface SpamOptions {
  /** CHAIN:ADDRESS as given. */
  tokens: string[];
}

/** A verdict either way, printed one line per token; `unspam` is the same with `spam` false. */
export async function markTokens(ctx: Context, refs: string[], spam: boolean): Promise<void> {
  // The arguments are read before the workspace and the ledger (docs/architecture.md "Output and exit codes").
  const tokens = refs.map(parseTokenRef);
  const ws = ctx.workspace();
  const marks = (await (await ctx.local(`tokens ${spam ? 'spam' : 'unspam'}`)).tokens()).mark(ws, tokens, spam);
  if (ctx.out.json) ctx.out.body({ success: true, data: marks });
  else
    for (const m of marks) {
      const rows = `${m.changed} row${m.changed === 1 ? '' : 's'}`;
      ctx.out.line(m.spam ? `${m.chain}:${m.address} is spam: ${rows} flagged` : `${m.chain}:${m.address} is not spam: ${rows} unflagged`);
    }
}

export function run(ctx: Context, opts: SpamOptions): Promise<void> {
  return markTokens(ctx, opts.tokens, true);
}

/** The token argument of `spam` and `unspam`. */
export const TOKEN_ARGUMENT = ['<token...>', 'CHAIN:ADDRESS, e.g. ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7'] as const;

export function register(parent: Command): void {
  parent
    .command('spam')
    .description('mark tokens as spam: their rows are flagged (kept, left out of lists, totals and reports), now and in future imports')
    .argument(...TOKEN_ARGUMENT)
    .action(action<Record<string, never>, [string[]]>((ctx, _flags, [tokens]) => run(ctx, { tokens })));
}

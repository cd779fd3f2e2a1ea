/**
 * `txa tokens spam|unspam|list` (docs/sync.md, "Spam"): the user's verdicts on tokens, which turn
 * the flag of the token's rows and of its future imports and syncs. Local only, like `rules`.
 */
import type { Command } from 'commander';
import { action } from '../../run.js';
import type { Context } from '../../context.js';
import type { TokenMark } from '../../../engine/spam-tokens.js';

/** The human line of a verdict. */
function verdictLine(m: TokenMark): string {
  const rows = `${m.changed} row${m.changed === 1 ? '' : 's'}`;
  return m.spam ? `${m.chain}:${m.address} is spam: ${rows} flagged` : `${m.chain}:${m.address} is not spam: ${rows} unflagged`;
}

function registerVerdict(tokens: Command, verb: 'spam' | 'unspam', description: string): void {
  tokens
    .command(verb)
    .description(description)
    .argument('<token...>', 'CHAIN:ADDRESS, e.g. ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7')
    .action(
      action(async (ctx: Context, _o, [refs]) => {
        const { markTokens, parseTokenRef } = await import('../../../engine/spam-tokens.js');
        const tokens = (refs as unknown as string[]).map(parseTokenRef);
        const ws = ctx.workspace();
        const local = await ctx.local(`tokens ${verb}`);
        const marks = markTokens(local.engine, ws, tokens, verb === 'spam');
        if (ctx.out.json) ctx.out.body({ success: true, data: marks });
        else for (const m of marks) ctx.out.line(verdictLine(m));
      }),
    );
}

export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('mark tokens as spam or not spam, for every row of them (local only; docs/sync.md)');
  registerVerdict(tokens, 'spam', 'mark tokens as spam: their rows are flagged (kept, left out of lists, totals and reports), now and in future imports');
  registerVerdict(tokens, 'unspam', "mark tokens as not spam: rows flagged for the token's sake are unflagged, and the token checks skip it from now on");
  tokens
    .command('list')
    .description('the tokens you marked, spam or not')
    .action(
      action(async (ctx: Context) => {
        const ws = ctx.workspace();
        const local = await ctx.local('tokens list');
        const { listMarks } = await import('../../../engine/spam-tokens.js');
        const marks = listMarks(local.engine, ws);
        if (ctx.out.json) ctx.out.body({ success: true, data: marks });
        else
          ctx.out.table(
            [{ header: 'CHAIN' }, { header: 'ADDRESS', fit: 'middle' }, { header: 'SPAM' }, { header: 'MARKED', fit: 'date' }],
            marks.map((m) => [m.chain, m.address, m.spam ? 'yes' : 'no', m.marked_at]),
          );
      }),
    );
}

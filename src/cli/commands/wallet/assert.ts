/** `txa wallet assert`, `txa wallet assertions` (CONTRACT §10) and `txa wallet unassert`: balance assertions, local only. */
import type { Command } from 'commander';
import type { BalanceAssertion } from '../../../core/types.js';
import type { Output } from '../../output.js';
import { action } from '../../run.js';

function printAssertions(out: Output, list: BalanceAssertion[]): void {
  out.table(
    ['ID', 'WALLET', 'TOKEN', 'BALANCE', 'AT END OF'],
    list.map((a) => [a.id, a.wallet_label, a.token.symbol, a.balance, a.at]),
    ['left', 'left', 'left', 'right', 'left'],
  );
}

export function registerAssertions(wallet: Command): void {
  wallet
    .command('assert')
    .description('record that a wallet held exactly AMOUNT of a token at the end of a UTC day; txa check verifies it (local only)')
    .argument('<id>', 'wallet id')
    .requiredOption('--token <symbol>', "the token's symbol (any case), or its contract address when two tokens share it")
    .requiredOption('--balance <amount>', 'the exact balance in token units, e.g. 1.25')
    .requiredOption('--at <YYYY-MM-DD>', 'the day, UTC: the balance at its end')
    .action(
      action<{ token: string; balance: string; at: string }>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        const local = await ctx.local('wallet assert');
        const { assertBalance } = await import('../../../engine/assertions.js');
        const a = assertBalance(local.engine, ws, id!, { token: o.token, balance: o.balance, at: o.at });
        if (ctx.out.json) ctx.out.body({ success: true, data: a });
        else printAssertions(ctx.out, [a]);
      }),
    );

  wallet
    .command('assertions')
    .description('balance assertions of the workspace, or of one wallet (local only)')
    .argument('[id]', 'wallet id')
    .action(
      action<Record<string, never>>(async (ctx, _o, [id]) => {
        const ws = ctx.workspace();
        const local = await ctx.local('wallet assertions');
        const { listAssertions } = await import('../../../engine/assertions.js');
        const list = listAssertions(local.engine, ws, id);
        if (ctx.out.json) ctx.out.body({ success: true, data: list });
        else printAssertions(ctx.out, list);
      }),
    );

  wallet
    .command('unassert')
    .description('remove a balance assertion, by its id (local only)')
    .argument('<id>', 'assertion id (bal_…), from txa wallet assertions')
    .action(
      action<Record<string, never>>(async (ctx, _o, [id]) => {
        const ws = ctx.workspace();
        const local = await ctx.local('wallet unassert');
        const { removeAssertion } = await import('../../../engine/assertions.js');
        const result = removeAssertion(local.engine, ws, id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: result });
        else ctx.out.notice(`Removed assertion ${result.id}.`);
      }),
    );
}

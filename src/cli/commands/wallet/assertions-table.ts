/** How balance assertions read, for `wallet assert` and `wallet assertions`. */
import type { BalanceAssertion } from '../../../core/types.js';
import type { Output } from '../../output.js';

export function printAssertions(out: Output, list: BalanceAssertion[]): void {
  out.table(
    ['ID', 'WALLET', 'TOKEN', 'BALANCE', 'AT END OF'],
    list.map((a) => [a.id, a.wallet_label, a.token.symbol, a.balance, a.at]),
    ['left', 'left', 'left', 'right', 'left'],
  );
}

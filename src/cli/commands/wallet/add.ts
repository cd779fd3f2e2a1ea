/** `txa wallet add --address ADDR --chain CHAIN` (or `--chain bitcoin --xpub KEY`), or `--exchange NAME`: a wallet of the workspace (docs/storage.md). */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { CHAINS, EXCHANGES } from '../../../core/types.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printWallets } from '../../views.js';

export interface AddOptions {
  address?: string;
  chain?: string;
  /** An exchange account instead of an address: one of EXCHANGES. */
  exchange?: string;
  label?: string;
  xpub?: string;
}

/** The request body: an address on a chain, or an exchange account; anything else is a usage error before any request. */
function bodyOf(opts: AddOptions): Record<string, string | undefined> {
  if (opts.exchange !== undefined) {
    const extra = opts.address !== undefined ? 'address' : opts.chain !== undefined ? 'chain' : opts.xpub !== undefined ? 'xpub' : undefined;
    if (extra) throw new TxaError('USAGE_ERROR', `--exchange takes no --${extra}: an exchange account has no address or chain`, { field: extra });
    if (!(EXCHANGES as readonly string[]).includes(opts.exchange)) {
      throw new TxaError('USAGE_ERROR', `--exchange must be one of ${EXCHANGES.join(', ')}, got '${opts.exchange}'`, { field: 'exchange' });
    }
    return { kind: 'exchange', exchange: opts.exchange, label: opts.label };
  }
  // An xpub stands for the address (bitcoin); the engine says which of the two a chain takes.
  for (const flag of opts.xpub === undefined ? (['address', 'chain'] as const) : (['chain'] as const)) {
    if (opts[flag] === undefined)
      throw new TxaError(
        'USAGE_ERROR',
        `--${flag} is required (${flag === 'address' ? 'or --xpub KEY on bitcoin, ' : ''}or --exchange NAME for an exchange account)`,
        {
          field: flag,
          hint: 'txa wallet add --address 0x… --chain ethereum, or txa wallet add --exchange coinbase --label Coinbase',
        },
      );
  }
  return { address: opts.address, chain: opts.chain, label: opts.label, xpub: opts.xpub };
}

export async function run(ctx: Context, opts: AddOptions): Promise<void> {
  const ws = ctx.workspace();
  const body = bodyOf(opts);
  const w = await (await ctx.backend()).createWallet(ws, body);
  ctx.out.result(w, () => printWallets(ctx.out, [w]));
}

export function register(parent: Command): void {
  parent
    .command('add')
    .description('add a wallet: an address on a chain, a bitcoin xpub, or an exchange account')
    .option('--address <address>', '0x address; on bitcoin a mainnet address (1…, 3…, bc1q…, bc1p…)')
    .option('--chain <chain>', CHAINS.join(', '))
    .option('--xpub <key>', "bitcoin only: the account's xpub, ypub or zpub (receive and change addresses, gap limit 20), instead of --address")
    .option('--exchange <name>', `an exchange account instead of an address: ${EXCHANGES.join(', ')}`)
    .option('--label <label>', 'a name for it')
    .action(action<AddOptions>((ctx, flags) => run(ctx, flags)));
}

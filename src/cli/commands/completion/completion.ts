/** `txa completion bash|zsh|fish`: a completion script made from the command tree (src/cli/completion.ts). */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export interface CompletionOptions {
  shell: string;
  /** The whole command tree, every noun registered (commands/index.ts WHOLE_TREE). */
  program: Command;
}

export async function run(ctx: Context, opts: CompletionOptions): Promise<void> {
  if (!(SHELLS as readonly string[]).includes(opts.shell)) {
    throw new TxaError('USAGE_ERROR', `shell must be one of ${SHELLS.join(', ')}, got '${opts.shell}'`, { field: 'shell' });
  }
  const { completionScript } = await import('../../completion.js');
  // Written as made: it holds the tree's own words, no data to make safe.
  ctx.out.stdout.write(completionScript(opts.program, opts.shell as (typeof SHELLS)[number]));
}

export function register(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script: commands, flags and known flag values')
    .argument('<shell>', SHELLS.join(', '))
    .action(action((ctx, _flags, [shell]) => run(ctx, { shell: shell!, program })));
}

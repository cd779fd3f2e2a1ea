import type { Command } from 'commander';
import { TxaError } from '../../core/errors.js';
import { action } from '../run.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script: commands, flags and known flag values')
    .argument('<shell>', SHELLS.join(', '))
    .action(
      action(async (_ctx, _opts, [shell]) => {
        if (!(SHELLS as readonly string[]).includes(shell!)) {
          throw new TxaError('USAGE_ERROR', `shell must be one of ${SHELLS.join(', ')}, got '${shell}'`, { field: 'shell' });
        }
        const { completionScript } = await import('../completion.js');
        process.stdout.write(completionScript(program, shell as (typeof SHELLS)[number]));
      }),
    );
}

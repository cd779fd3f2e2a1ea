/**
 * The `txa` program: global options, the noun/verb commands, and the mapping of usage errors to
 * exit code 2. Command modules load their heavy dependencies only when they run.
 */
import { Command, CommanderError, Option } from 'commander';
import { registerCommands } from './commands/index.js';
import { exitCodes } from '../core/errors.js';
import { version } from './version.js';

export async function buildProgram(args: string[]): Promise<Command> {
  const program = new Command('txa')
    .description('Accounting over blockchain wallet transactions: tags, filters, exact summaries and reports.')
    .version(version(), '-V, --version')
    .option('--db <path>', 'ledger file of the local backend (env TXA_DB)')
    .option('--remote', 'use the remote HTTP API instead of the local ledger')
    .option('--base-url <url>', 'base URL of the remote API (env TXA_BASE_URL); implies --remote')
    .option('--api-key <key>', 'API key for the remote API (prefer env TXA_API_KEY or `txa login`)')
    .option('--profile <name>', 'config profile to use (env TXA_PROFILE)')
    .option('-w, --workspace <id>', 'workspace to work on (env TXA_WORKSPACE)')
    .option('--json', 'print the API JSON body instead of tables')
    .addOption(new Option('--no-color', 'disable colour (also NO_COLOR)'))
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions(false)
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(str) });
  await registerCommands(program, args);
  for (const cmd of allCommands(program)) cmd.exitOverride().showHelpAfterError('(run with --help for usage)');
  return program;
}

function* allCommands(cmd: Command): Generator<Command> {
  for (const sub of cmd.commands) {
    yield sub;
    yield* allCommands(sub);
  }
}

export async function runProgram(argv: string[]): Promise<void> {
  const program = await buildProgram(argv.slice(2));
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      process.exitCode = err.exitCode === 0 ? 0 : exitCodes.usage;
      return;
    }
    throw err;
  }
}

/**
 * The `txa` program: global options, the noun/verb commands, and commander's own parse errors
 * (unknown command or flag, missing value, extra argument) reported as a USAGE_ERROR (docs/cli.md "Flag values and exit codes").
 * Command modules load their heavy dependencies only when they run.
 */
import { Command, CommanderError, Option } from 'commander';
import { registerCommands } from './commands/index.js';
import { TxaError, exitCodes } from '../core/errors.js';
import { Output } from './output.js';
import { commandPath } from './run.js';
import { EXAMPLES, examplesText } from './examples.js';
import { version } from './version.js';

export async function buildProgram(args: string[]): Promise<Command> {
  const program = new Command('txa')
    .description('Accounting over blockchain wallet transactions: tags, filters, exact summaries and reports.')
    .version(version(), '-V, --version')
    .option('--db <path>', 'ledger file of the local backend (env TXA_DB); selects the local backend over TXA_BASE_URL or a profile base_url')
    .option('--remote', 'use the remote HTTP API instead of the local ledger')
    .option('--base-url <url>', 'base URL of the remote API (env TXA_BASE_URL); implies --remote')
    .option('--api-key <key>', 'API key for the remote API (prefer env TXA_API_KEY or `txa login`)')
    .option('--profile <name>', 'config profile to use (env TXA_PROFILE)')
    .option('-w, --workspace <id>', 'workspace to work on (env TXA_WORKSPACE)')
    .option('--json', 'print the API JSON body instead of tables')
    .addOption(new Option('--no-color', 'disable colour (also NO_COLOR)'))
    // A subcommand's help lists the global flags it takes too (--json, -w, --db, --profile, …).
    .configureHelp({ showGlobalOptions: true });
  await registerCommands(program, args);
  for (const cmd of [program, ...allCommands(program)]) {
    // Parse errors reach runProgram as a TxaError and are printed there, once, as every error is.
    cmd.exitOverride(asUsageError(cmd)).configureOutput({ outputError: () => undefined });
    const examples = EXAMPLES[commandPath(cmd)];
    // Wrapped at word boundaries to the terminal when help is shown (COLUMNS, else the terminal's width).
    if (examples) cmd.addHelpText('after', () => examplesText(examples, helpWidth()));
  }
  return program;
}

/** The width help is wrapped to: COLUMNS, else the terminal's; none in a pipe without COLUMNS. */
function helpWidth(): number | undefined {
  const columns = Number(process.env.COLUMNS);
  if (Number.isInteger(columns) && columns > 20) return columns;
  return process.stdout.isTTY ? process.stdout.columns : undefined;
}

function* allCommands(cmd: Command): Generator<Command> {
  for (const sub of cmd.commands) {
    yield sub;
    yield* allCommands(sub);
  }
}

/** Help, version and a bare noun's help pass through; any other commander error becomes USAGE_ERROR. */
function asUsageError(cmd: Command): (err: CommanderError) => never {
  return (err) => {
    if (err.exitCode === 0 || err.code === 'commander.help') throw err;
    // Commander's message is `error: …`, with a `(Did you mean …?)` line after a near miss.
    const [message = err.message, suggestion] = err.message.replace(/^error: /, '').split('\n');
    const help = `See \`${commandPath(cmd)} --help\`.`;
    throw new TxaError('USAGE_ERROR', message, {
      field: fieldOf(err),
      hint: suggestion ? `${suggestion.replace(/^\((.*)\)$/, '$1')} ${help}` : help,
      cause: err,
    });
  };
}

/** The option's long name (`workspace` of `-w, --workspace <id>`), or a missing argument's name. */
function fieldOf(err: CommanderError): string | undefined {
  const flags = /option '([^']+)'/.exec(err.message)?.[1];
  if (flags) return (/--([^\s,=<[]+)/.exec(flags) ?? /-([^\s,=<[]+)/.exec(flags))?.[1];
  if (err.code === 'commander.missingArgument') return /argument '([^']+)'/.exec(err.message)?.[1];
  return undefined;
}

/** `--json` and `--no-color` as given, for an error found before commander parsed them. */
function outputOf(args: string[]): Output {
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  return new Output({ json: flags.includes('--json'), color: !flags.includes('--no-color') });
}

export async function runProgram(argv: string[]): Promise<void> {
  const program = await buildProgram(argv.slice(2));
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof TxaError) {
      outputOf(argv.slice(2)).error(err);
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0; a noun without a verb shows its help.
      process.exitCode = err.exitCode === 0 ? 0 : exitCodes.usage;
      return;
    }
    throw err;
  }
}

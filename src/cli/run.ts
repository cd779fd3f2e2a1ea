/**
 * Glue between commander and a command's logic: builds the context, runs the action, maps any
 * failure to the one-line error and exit code of docs/architecture.md "Output and exit codes", and closes the backend.
 */
import type { Command } from 'commander';
import { TxaError } from '../core/errors.js';
import { Context } from './context.js';
import { flagsByField, inFlagWords } from './error-flags.js';
import type { Output } from './output.js';

/** `args` are commander's processed arguments: strings, or a string array for a variadic one. */
export type Action<O, A extends unknown[]> = (ctx: Context, opts: O, args: A) => Promise<void>;

export function toTxaError(err: unknown): TxaError {
  if (err instanceof TxaError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new TxaError('INTERNAL_ERROR', message, { cause: err, hint: process.env.TXA_DEBUG ? (err as Error)?.stack : undefined });
}

/** `txa tags list`: the command's words from the program down. */
export function commandPath(cmd: Command): string {
  const words: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) words.unshift(c.name());
  return words.join(' ');
}

/** Whether the command line gave any of the command's own flags a value (so their forms are worth loading). */
function typedValues(cmd: Command): boolean {
  return cmd.options.some((o) => (o.required || o.optional) && cmd.getOptionValueSource(o.attributeName()) === 'cli');
}

/** Wraps a command's logic as a commander action handler. */
export function action<O = Record<string, never>, A extends unknown[] = string[]>(fn: Action<O, A>) {
  return async (...received: unknown[]): Promise<void> => {
    const cmd = received[received.length - 1] as Command;
    const args = cmd.processedArgs as A;
    const path = commandPath(cmd);
    await execute(
      Context.of(cmd),
      path,
      async (ctx) => {
        // A value a flag can never take is a usage error before anything is opened (docs/cli.md, "Flag values and exit codes").
        if (typedValues(cmd)) await (await import('./flag-values.js')).checkFlagValues(cmd, path);
        await fn(ctx, cmd.opts() as O, args);
      },
      flagsByField(cmd),
    );
  };
}

/**
 * Runs a command's logic on `ctx` as the CLI does: the global checks first, any failure as the
 * one-line error and exit code of docs/architecture.md "Output and exit codes" (set on
 * `process.exitCode`), the backend closed at the end. `action` calls it for commander, with the
 * command's flags by field (error-flags.ts); tests call it to run a command's `run` in process.
 */
export async function execute(ctx: Context, command: string, fn: (ctx: Context) => Promise<void>, flags?: Map<string, string>): Promise<void> {
  let succeeded = false;
  try {
    ctx.check(command);
    await fn(ctx);
    succeeded = true;
  } catch (err) {
    const e = ctx.explain(toTxaError(err));
    // A human error names the flag the user typed, not the API's field (docs/cli.md "Error wording"); --json keeps the field.
    ctx.out.error(flags && !ctx.out.json ? inFlagWords(e, flags) : e);
    process.exitCode = e.exitCode;
  } finally {
    await ctx.close().catch(() => undefined);
    ctx.settleCreatedLedger(succeeded);
  }
}

/** A flag value that must be one of a set, checked before any request (a usage error). */
export function choice<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new TxaError('USAGE_ERROR', `--${flag} must be one of ${allowed.join(', ')}, got '${value}'`, { field: flag });
}

/**
 * A boolean flag for a JSON body: `true`/`false` as booleans, any other word as it is, so the API
 * refuses it with its own INVALID_FIELD and field (exit 1), as it does every other bad value.
 */
export function booleanFlag(value: string | undefined): boolean | string | undefined {
  return value === 'true' ? true : value === 'false' ? false : value;
}

/** Splits `a,b` list flags. */
export function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

/**
 * Without `--yes` a question needs a terminal; else the usage error. A destructive command calls
 * it first, so it is said before a ledger or a backend is opened (docs/architecture.md "Output and exit codes").
 */
export function requireAnswerable(yes: boolean | undefined): void {
  if (!yes && (!process.stdin.isTTY || !process.stdout.isTTY)) {
    throw new TxaError('USAGE_ERROR', '--yes required when not running interactively', { field: 'yes' });
  }
}

/** `--yes` or a confirmation on a TTY; without a TTY and without `--yes`, a usage error. */
export async function confirm(yes: boolean | undefined, question: string): Promise<boolean> {
  if (yes) return true;
  requireAnswerable(yes);
  const { confirm: ask } = await import('@inquirer/prompts');
  return ask({ message: question, default: false });
}

/** `confirm`; a no says "Cancelled." on stderr and exits 1, and the caller stops on `false`. */
export async function confirmOrCancel(out: Output, yes: boolean | undefined, question: string): Promise<boolean> {
  if (await confirm(yes, question)) return true;
  out.notice('Cancelled.');
  process.exitCode = 1;
  return false;
}

/**
 * Runs a command's `run(ctx, opts)` in this process, as the CLI runs it (src/cli/run.ts `execute`:
 * global checks, errors as one line and an exit code, the backend closed), with stdout and stderr
 * captured and no TTY. The settings a command reads from the environment (TXA_CONFIG_DIR,
 * TXA_DB, …) are the test's: pass the ledger and workspace as globals (`db`, `workspace`, `json`).
 * Spawned-binary tests stay for what needs a process: exit codes of the binary, signals, a TTY.
 */
import { Context, type GlobalOptions } from '../../src/cli/context.js';
import { execute } from '../../src/cli/run.js';

export interface Ran {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export async function runInProcess<O>(command: string, run: (ctx: Context, opts: O) => Promise<void>, opts: O, globals: GlobalOptions = {}): Promise<Ran> {
  const ran = { stdout: '', stderr: '' };
  const streams = { stdout: { write: (t: string) => (ran.stdout += t) }, stderr: { write: (t: string) => (ran.stderr += t) } };
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await execute(new Context(globals, streams), command, (ctx) => run(ctx, opts));
    return { ...ran, exitCode: Number(process.exitCode ?? 0) };
  } finally {
    process.exitCode = before;
  }
}

/**
 * `txa WORDS` through the real commander program in this process (src/cli/program.ts): its exit
 * code and stderr, stdout dropped. A TxaError commander's parsing throws (a flag's form) reads as
 * the CLI prints it.
 */
import { buildProgram } from '../../../src/cli/program.js';
import { TxaError } from '../../../src/core/errors.js';

export async function programRun(words: string[]): Promise<{ exitCode: number; stderr: string }> {
  const program = await buildProgram(words);
  let stderr = '';
  const [err, out] = [process.stderr.write, process.stdout.write];
  process.stderr.write = ((t: string) => ((stderr += t), true)) as typeof process.stderr.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'txa', ...words]);
    return { exitCode: Number(process.exitCode ?? 0), stderr };
  } catch (e) {
    if (e instanceof TxaError) return { exitCode: e.exitCode, stderr: `error: ${e.code} (${e.field}): ${e.message}` };
    throw e;
  } finally {
    process.stderr.write = err;
    process.stdout.write = out;
    process.exitCode = before;
  }
}

/**
 * Entry point. `txa --version` answers before commander and the command modules load, so it
 * costs little more than starting node (bench/RESULTS.md); everything else builds the program.
 */
import { version } from './version.js';

export async function main(argv: string[]): Promise<void> {
  // `txa … | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  const { runProgram } = await import('./program.js');
  await runProgram(argv);
}

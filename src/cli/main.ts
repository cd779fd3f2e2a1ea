/**
 * Entry point. `txa --version` answers before commander and the command modules load, so it
 * costs little more than starting node (bench/RESULTS.md); everything else builds the program.
 */
import { version } from './version.js';

export async function main(argv: string[]): Promise<void> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  const { runProgram } = await import('./program.js');
  await runProgram(argv);
}

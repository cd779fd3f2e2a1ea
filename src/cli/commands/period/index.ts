import type { Command } from 'commander';
import * as close from './close.js';
import * as reopen from './reopen.js';
import * as list from './list.js';

export function registerPeriod(program: Command): void {
  const period = program.command('period').description('closed periods: refuse writes into filed years, and keep their digests (docs/periods.md)');
  close.register(period);
  reopen.register(period);
  list.register(period);
}

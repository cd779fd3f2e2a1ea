import type { Command } from 'commander';
import * as fill from './fill.js';
import * as importRates from './import.js';
import * as list from './list.js';

export function registerRates(program: Command): void {
  const rates = program.command('rates').description('daily FX rates from the base currency, for the export option --currency (local only)');
  fill.register(rates);
  importRates.register(rates);
  list.register(rates);
}

/** `txa prices fill|import|list|forget` (docs/prices.md): a fiat value for every row, through the local price cache. */
import type { Command } from 'commander';
import * as fill from './fill.js';
import * as forget from './forget.js';
import * as importPrices from './import.js';
import * as list from './list.js';

export function registerPrices(program: Command): void {
  const prices = program.command('prices').description('token prices for rows without a fiat value, through a local cache (local only)');
  fill.register(prices);
  importPrices.register(prices);
  list.register(prices);
  forget.register(prices);
}

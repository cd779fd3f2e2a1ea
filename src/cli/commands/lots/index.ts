import type { Command } from 'commander';
import * as list from './list.js';
import * as allocate from './allocate.js';
import * as allocation from './allocation.js';
import * as pick from './pick.js';
import * as picks from './picks.js';
import * as unpick from './unpick.js';
import * as importOpenings from './import.js';
import * as openings from './openings.js';
import * as removeOpenings from './remove-openings.js';

export function registerLots(program: Command): void {
  const lots = program
    .command('lots')
    .description('tax lots: open lots at a date, the 2025 allocation of pooled lots to wallets, specific identification, opening lots (docs/lots.md)');
  list.register(lots);
  allocate.register(lots);
  allocation.register(lots);
  pick.register(lots);
  picks.register(lots);
  unpick.register(lots);
  importOpenings.register(lots);
  openings.register(lots);
  removeOpenings.register(lots);
}

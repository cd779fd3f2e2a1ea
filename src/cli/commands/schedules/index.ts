import type { Command } from 'commander';
import * as create from './create.js';
import * as list from './list.js';
import * as del from './delete.js';
import * as run from './run.js';
import * as runDue from './run-due.js';

export function registerSchedules(program: Command): void {
  const schedules = program
    .command('schedules')
    .description('scheduled reports: an export of each past day, week, month or quarter, e-mailed or sent to a webhook');
  create.register(schedules);
  list.register(schedules);
  del.register(schedules);
  run.register(schedules);
  runDue.register(schedules);
}

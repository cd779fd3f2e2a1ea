import type { Command } from 'commander';
import * as list from './list.js';

export function registerEvents(program: Command): void {
  const events = program.command('events').description('the event log and its webhook deliveries');
  list.register(events);
}

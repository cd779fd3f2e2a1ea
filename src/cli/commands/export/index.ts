import type { Command } from 'commander';
import * as cancel from './cancel.js';
import * as create from './create.js';
import * as download from './download.js';
import * as list from './list.js';
import * as status from './status.js';

export function registerExport(program: Command): void {
  const exp = program.command('export').description('exports of transactions as CSV, JSON or PDF, by download, e-mail or webhook');
  create.register(exp);
  status.register(exp);
  list.register(exp);
  cancel.register(exp);
  download.register(exp);
}

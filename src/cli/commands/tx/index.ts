import type { Command } from 'commander';
import * as attach from './attach.js';
import * as get from './get.js';
import * as history from './history.js';
import * as list from './list.js';
import * as tag from './tag.js';
import * as untag from './untag.js';
import * as update from './update.js';

export function registerTx(program: Command): void {
  const tx = program.command('tx').description('transactions: list with filters and totals, notes, tags, attachments');
  list.register(tx);
  get.register(tx);
  tag.register(tx);
  untag.register(tx);
  update.register(tx);
  attach.register(tx);
  history.register(tx);
}

import type { Command } from 'commander';
import { registerList } from './list.js';
import * as get from './get.js';
import { registerTag, registerUntag } from './tag.js';
import { registerUpdate } from './update.js';
import { registerAttach } from './attach.js';
import { registerHistory } from './history.js';

export function registerTx(program: Command): void {
  const tx = program.command('tx').description('transactions: list with filters and totals, notes, tags, attachments');
  registerList(tx);
  get.register(tx);
  registerTag(tx);
  registerUntag(tx);
  registerUpdate(tx);
  registerAttach(tx);
  registerHistory(tx);
}

import type { Command } from 'commander';
import { registerCreate } from './create.js';
import { registerList } from './list.js';
import { registerUpdate } from './update.js';
import { registerDelete } from './delete.js';

export function registerTags(program: Command): void {
  const tags = program.command('tags').description('tags of the workspace (income, expense, neutral)');
  registerCreate(tags);
  registerList(tags);
  registerUpdate(tags);
  registerDelete(tags);
}

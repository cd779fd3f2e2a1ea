import type { Command } from 'commander';
import * as create from './create.js';
import * as del from './delete.js';
import * as list from './list.js';
import * as update from './update.js';

export function registerTags(program: Command): void {
  const tags = program.command('tags').description('tags of the workspace (income, expense, neutral)');
  create.register(tags);
  list.register(tags);
  update.register(tags);
  del.register(tags);
}

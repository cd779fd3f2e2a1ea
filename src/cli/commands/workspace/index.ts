import type { Command } from 'commander';
import * as create from './create.js';
import * as list from './list.js';
import * as update from './update.js';
import * as use from './use.js';

export function registerWorkspace(program: Command): void {
  const workspace = program.command('workspace').description('workspaces of the local ledger');
  create.register(workspace);
  update.register(workspace);
  list.register(workspace);
  use.register(workspace);
}

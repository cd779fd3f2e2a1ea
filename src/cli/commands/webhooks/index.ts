import type { Command } from 'commander';
import * as add from './add.js';
import * as list from './list.js';
import * as remove from './remove.js';

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('webhook subscriptions to the events of the workspace');
  add.register(webhooks);
  list.register(webhooks);
  remove.register(webhooks);
}

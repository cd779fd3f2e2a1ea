import type { Command } from 'commander';
import * as add from './add.js';
import * as assert from './assert.js';
import * as assertions from './assertions.js';
import * as list from './list.js';
import * as remove from './remove.js';
import * as sync from './sync.js';
import * as unassert from './unassert.js';
import * as update from './update.js';

export function registerWallet(program: Command): void {
  const wallet = program.command('wallet').description('wallets of the workspace, with balances');
  add.register(wallet);
  list.register(wallet);
  update.register(wallet);
  remove.register(wallet);
  assert.register(wallet);
  assertions.register(wallet);
  unassert.register(wallet);
  sync.register(wallet);
}

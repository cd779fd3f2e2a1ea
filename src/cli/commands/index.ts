/** Registers every noun of the CLI. Each verb lives in commands/<noun>/<verb>.ts. */
import type { Command } from 'commander';
import { registerWorkspace } from './workspace/index.js';
import { registerWallet } from './wallet/index.js';
import { registerTags } from './tags/index.js';
import { registerTx } from './tx/index.js';
import { registerEvents } from './events/index.js';
import { registerImport } from './import.js';
import { registerExport } from './export/index.js';
import { registerRates } from './rates/index.js';
import { registerServe } from './serve/index.js';
import { registerKeys } from './keys/index.js';
import { registerWebhooks } from './webhooks/index.js';
import { registerLogin } from './login/index.js';
import { registerConfig } from './config/index.js';
import { registerDemo } from './demo.js';

export function registerCommands(program: Command): void {
  registerWorkspace(program);
  registerWallet(program);
  registerTags(program);
  registerTx(program);
  registerEvents(program);
  registerImport(program);
  registerExport(program);
  registerRates(program);
  registerServe(program);
  registerKeys(program);
  registerWebhooks(program);
  registerLogin(program);
  registerConfig(program);
  registerDemo(program);
}

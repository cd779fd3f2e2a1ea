/**
 * The local services: the work only the local ledger does (wallet sync, prices, rules, checks,
 * keys, workspaces, imports, serve, …), one object per concern, each loaded on first use (a
 * command should not pay for the others' modules: bench/RESULTS.md, start-up). Commands reach
 * them through `ctx.local(…)` and import nothing of the layers below (test/layers.test.ts); data
 * commands use the Backend (`ctx.backend()`), which both the local engine and the remote API are.
 */
import type { LocalBackend } from '../engine/local-backend.js';
import type { AssertionsService } from './assertions.js';
import type { ChecksService } from './checks.js';
import type { DemoService } from './demo.js';
import type { ExportsService } from './exports.js';
import type { ImportsService } from './imports.js';
import type { KeysService } from './keys.js';
import type { PricesService } from './prices.js';
import type { RatesService } from './rates.js';
import type { RulesService } from './rules.js';
import type { SchedulesService } from './schedules.js';
import type { ServerService } from './server.js';
import type { TokensService } from './tokens.js';
import type { TransfersService } from './transfers.js';
import type { WalletSyncService } from './wallet-sync.js';
import type { WorkspacesService } from './workspaces.js';

// What commands name of the services and their answers: they may import types of this file only.
export type { FillResult } from '../prices/fill.js';
export type { SyncResult } from '../sync/wallet-sync.js';
export type { PriceSettings } from '../prices/settings.js';
export type { SyncSettings } from '../sync/settings.js';
export type {
  AssertionsService,
  ChecksService,
  DemoService,
  ExportsService,
  ImportsService,
  KeysService,
  PricesService,
  RatesService,
  RulesService,
  SchedulesService,
  ServerService,
  TokensService,
  TransfersService,
  WalletSyncService,
  WorkspacesService,
};

export class LocalServices {
  constructor(readonly backend: LocalBackend) {}

  async keys(): Promise<KeysService> {
    return (await import('./keys.js')).keysService(this.backend.engine);
  }

  async workspaces(): Promise<WorkspacesService> {
    return (await import('./workspaces.js')).workspacesService(this.backend.engine);
  }

  async assertions(): Promise<AssertionsService> {
    return (await import('./assertions.js')).assertionsService(this.backend.engine);
  }

  async transfers(): Promise<TransfersService> {
    return (await import('./transfers.js')).transfersService(this.backend.engine);
  }

  async walletSync(): Promise<WalletSyncService> {
    return (await import('./wallet-sync.js')).walletSyncService(this.backend.engine);
  }

  async checks(): Promise<ChecksService> {
    return (await import('./checks.js')).checksService(this.backend.engine);
  }

  async demo(): Promise<DemoService> {
    return (await import('./demo.js')).demoService(this.backend.engine);
  }

  async exports(): Promise<ExportsService> {
    return (await import('./exports.js')).exportsService(this.backend);
  }

  async imports(): Promise<ImportsService> {
    return (await import('./imports.js')).importsService(this.backend.engine);
  }

  async prices(): Promise<PricesService> {
    return (await import('./prices.js')).pricesService(this.backend.engine);
  }

  async rates(): Promise<RatesService> {
    return (await import('./rates.js')).ratesService(this.backend.engine);
  }

  async rules(): Promise<RulesService> {
    return (await import('./rules.js')).rulesService(this.backend.engine);
  }

  async schedules(): Promise<SchedulesService> {
    return (await import('./schedules.js')).schedulesService(this.backend.engine);
  }

  async server(): Promise<ServerService> {
    return (await import('./server.js')).serverService();
  }

  async tokens(): Promise<TokensService> {
    return (await import('./tokens.js')).tokensService(this.backend.engine);
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

/**
 * The local services: the work only the local ledger does (wallet sync, prices, rules, checks,
 * keys, workspaces, imports, serve, …), one object per concern, each loaded on first use (a
 * command should not pay for the others' modules: bench/RESULTS.md, start-up). Commands reach
 * them through `ctx.local(…)` and import nothing of the layers below (test/layers.test.ts); data
 * commands use the Backend (`ctx.backend()`), which both the local engine and the remote API are.
 */
import type { LocalBackend } from '../engine/local-backend.js';
import type { AssertionsService } from './assertions.js';
import type { KeysService } from './keys.js';
import type { TransfersService } from './transfers.js';
import type { WalletSyncService } from './wallet-sync.js';
import type { WorkspacesService } from './workspaces.js';

// What commands name of the services' answers; they may import types of this file only.
export type { FillResult } from '../prices/fill.js';
export type { SyncResult } from '../sync/wallet-sync.js';
export type { WalletSyncService } from './wallet-sync.js';

export class LocalServices {
  constructor(readonly backend: LocalBackend) {}

  /** The engine, until every command goes through a service: commands must not use it. */
  get engine(): LocalBackend['engine'] {
    return this.backend.engine;
  }

  async keys(): Promise<KeysService> {
    return new (await import('./keys.js')).KeysService(this.backend.engine);
  }

  async workspaces(): Promise<WorkspacesService> {
    return new (await import('./workspaces.js')).WorkspacesService(this.backend.engine);
  }

  async assertions(): Promise<AssertionsService> {
    return new (await import('./assertions.js')).AssertionsService(this.backend.engine);
  }

  async transfers(): Promise<TransfersService> {
    return new (await import('./transfers.js')).TransfersService(this.backend.engine);
  }

  async walletSync(): Promise<WalletSyncService> {
    return new (await import('./wallet-sync.js')).WalletSyncService(this.backend.engine);
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

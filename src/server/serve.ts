/**
 * `txa serve`: the HTTP API on the local engine, with the webhook delivery loop and the export
 * worker in the same process. Shutdown (SIGTERM/SIGINT) stops accepting, lets in-flight requests
 * finish, and leaves queued exports and pending deliveries in the ledger for the next start.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { TxaError } from '../core/errors.js';
import { Engine } from '../engine/engine.js';
import { LocalBackend } from '../engine/local-backend.js';
import { buildServer } from './app.js';
import { DeliveryLoop } from './delivery.js';
import { ExportWorker } from './export-worker-host.js';
import type { SyncSettings } from '../sync/settings.js';
import { queueDueSyncs } from '../sync/sync-jobs.js';

export interface ServeOptions {
  ledgerPath: string;
  host: string;
  port: number;
  publicUrl?: string;
  allowPrivateWebhooks: boolean;
  /** The profile's `etherscan_api_key`, for wallet syncs (TXA_ETHERSCAN_API_KEY wins). */
  etherscanKey?: string;
  /** TXA_SYNC_* and the explorers', read by the command before the ledger was opened (src/cli/env-settings.ts). */
  syncSettings: SyncSettings;
  /** `--sync-every`: queue a sync of every syncable wallet this often. */
  syncEveryMs?: number;
}

/** The local backend, with export creation moved to the worker thread, off the request thread. */
class ServedBackend extends LocalBackend {
  constructor(
    engine: Engine,
    private readonly exportsWorker: ExportWorker,
  ) {
    super(engine);
  }

  override async createExport(workspaceId: string, body: unknown) {
    return this.exportsWorker.createExport(workspaceId, body);
  }

  override async runSchedule(workspaceId: string, scheduleId: string) {
    return this.exportsWorker.runSchedule(workspaceId, scheduleId, this.engine.actor);
  }

  override async requestWalletSync(workspaceId: string, walletId: string) {
    const record = await super.requestWalletSync(workspaceId, walletId);
    this.exportsWorker.wakeSync();
    return record;
  }
}

export interface RunningServer {
  url: string;
  publicUrl: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

function listenError(err: unknown, opts: ServeOptions): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${opts.host}:${opts.port}`;
  if (code === 'EADDRINUSE')
    return new TxaError('USAGE_ERROR', `${where} is already in use`, { field: 'port', hint: 'Pass another --port, or --port 0 for a free one.' });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new TxaError('USAGE_ERROR', `cannot listen on ${where}: no such local address`, { field: 'host' });
  if (code === 'EACCES')
    return new TxaError('USAGE_ERROR', `not allowed to listen on ${where}`, { field: 'port', hint: 'Ports below 1024 need privileges; pick a higher --port.' });
  return err;
}

/** The URL the server listens on, once bound (`--port 0` picks the port). */
function boundUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${hostPart}:${address.port}`;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const settings = opts.syncSettings;
  const engine = Engine.open(opts.ledgerPath, { actor: 'api' });
  const delivery = new DeliveryLoop(engine, { allowPrivate: opts.allowPrivateWebhooks });
  engine.events.onAppend(() => setImmediate(() => delivery.wake()));
  const exportsWorker = ExportWorker.create(engine, opts.ledgerPath, opts.allowPrivateWebhooks, opts.etherscanKey, () => delivery.wake());
  const backend = new ServedBackend(engine, exportsWorker);

  const app = buildServer({
    backend,
    engine,
    allowPrivateWebhooks: opts.allowPrivateWebhooks,
  });
  // The public base is known only once the port is bound (`--port 0` picks one).
  try {
    await app.listen({ host: opts.host, port: opts.port });
  } catch (err) {
    await app.close();
    engine.close();
    throw listenError(err, opts);
  }
  const url = boundUrl(app);
  const publicUrl = (opts.publicUrl ?? url).replace(/\/+$/, '');
  engine.publicBaseUrl = publicUrl;
  engine.attachmentUrl = (id) => `${publicUrl}/api/v1/attachments/${id}`;
  delivery.start();
  exportsWorker.start(publicUrl);
  const queueSyncs = () => {
    if (queueDueSyncs(engine, settings) > 0) exportsWorker.wakeSync();
  };
  // The first round at start: a server started with --sync-every should not wait a period first.
  if (opts.syncEveryMs) queueSyncs();
  const syncTimer = opts.syncEveryMs ? setInterval(queueSyncs, opts.syncEveryMs) : undefined;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Stops accepting and waits for in-flight requests; connections that fall idle meanwhile are closed.
      clearInterval(syncTimer);
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      await app.close();
      clearInterval(sweep);
      await delivery.stop();
      await exportsWorker.stop();
      engine.close();
    })());
  return { url, publicUrl, app, close };
}

/** `txa serve`: the HTTP API on the local ledger, until SIGTERM or SIGINT. */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { requireHttpUrl } from '../../config.js';
import type { Context } from '../../context.js';
import { syncEnv } from '../../env-settings.js';
import { action } from '../../run.js';

export interface ServeOptions {
  host: string;
  port: string;
  publicUrl?: string;
  allowPrivateWebhooks?: boolean;
  syncEvery?: string;
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
/** Syncing more often than this only spends the explorer's quota. */
const MIN_SYNC_EVERY_MS = 60_000;
/** setInterval's limit (~24.8 days). */
const MAX_SYNC_EVERY_MS = 2 ** 31 - 1;

/** `--sync-every 90s|15m|1h` in ms, at least a minute. */
export function syncEveryMs(text: string): number {
  const m = /^(\d+)(s|m|h)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : NaN;
  if (!(ms >= MIN_SYNC_EVERY_MS && ms <= MAX_SYNC_EVERY_MS)) {
    throw new TxaError('USAGE_ERROR', `--sync-every must be a duration of 1m to 596h such as 90s, 15m or 1h, got '${text}'`, { field: 'sync-every' });
  }
  return ms;
}

function portOf(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new TxaError('USAGE_ERROR', `--port must be 0 to 65535, got '${text}'`, { field: 'port' });
  return port;
}

/**
 * The first SIGTERM or SIGINT, listened for from before the server binds: a signal that comes
 * while it starts stops it as soon as it has started, instead of being lost.
 */
function firstSignal(): { signal: Promise<string>; forget: () => void } {
  let forget = () => {};
  const signal = new Promise<string>((resolve) => {
    const term = () => resolve('SIGTERM');
    const int = () => resolve('SIGINT');
    process.once('SIGTERM', term);
    process.once('SIGINT', int);
    forget = () => {
      process.off('SIGTERM', term);
      process.off('SIGINT', int);
    };
  });
  return { signal, forget };
}

export async function run(ctx: Context, opts: ServeOptions): Promise<void> {
  const port = portOf(opts.port);
  const publicUrl = opts.publicUrl ?? ctx.publicUrl();
  if (opts.publicUrl !== undefined) requireHttpUrl(opts.publicUrl, '--public-url', 'public-url');
  const syncEvery = opts.syncEvery === undefined ? undefined : syncEveryMs(opts.syncEvery);
  // A bad TXA_SYNC_* stops serve here, before the ledger is opened, not each sync later.
  const syncSettings = await syncEnv(ctx);
  const server = await (await ctx.local('serve')).server();
  const ledgerPath = ctx.ledgerPath();
  await ctx.close(); // serve opens its own connections
  const stop = firstSignal();
  const running = await server
    .start({
      ledgerPath,
      host: opts.host,
      port,
      publicUrl,
      allowPrivateWebhooks: Boolean(opts.allowPrivateWebhooks),
      etherscanKey: ctx.profile.etherscan_api_key,
      syncEveryMs: syncEvery,
      syncSettings,
    })
    .catch((err: unknown) => {
      stop.forget();
      throw err;
    });
  ctx.out.stderr.write(`txa API listening on ${running.url} (ledger ${ledgerPath})\n`);
  if (running.publicUrl !== running.url) ctx.out.stderr.write(`public URL ${running.publicUrl}\n`);
  const signal = await stop.signal;
  stop.forget();
  // Finishes the requests in flight before it exits.
  ctx.out.stderr.write(`${signal}: finishing in-flight requests…\n`);
  await running.close().catch(() => {});
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTP API on the local ledger, with the export worker and webhook delivery')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '8080')
    .option(
      '--public-url <url>',
      "base URL clients use, for download links and attachment URLs (default: TXA_PUBLIC_URL, else the profile's public_url, else http://<host>:<port>)",
    )
    .option('--allow-private-webhooks', 'allow webhook targets on private and loopback addresses (for local testing)')
    .option('--sync-every <duration>', 'sync every wallet whose explorer is available this often (90s, 15m, 1h; 1m to 596h)')
    .action(action<ServeOptions>((ctx, flags) => run(ctx, flags)));
}

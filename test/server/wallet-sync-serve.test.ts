/**
 * Wallet syncs run by a real `txa serve` on 127.0.0.1 against the replay explorer: POST → 202
 * queued → GET until completed, failures in the record, a serve killed mid-sync resuming after a
 * restart with nothing lost or repeated, `--sync-every`, and `txa wallet sync` through the API
 * printing what the local sync prints.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { ENVELOPES, replayServer, type ReplayServer } from '../helpers/explorer-replay.js';
import { WALLET, apiLists, history } from '../helpers/sync-history.js';
import { api, startServe, until, type ServeProcess } from './serve-process.js';
import { syncEveryMs } from '../../src/cli/commands/serve/serve.js';

let explorer: ReplayServer;
let s: Sandbox;
let srv: ServeProcess | undefined;
let key: string;
let wallet: string;

const SYNC_ENV = { TXA_SYNC_RPS: '1000', TXA_SYNC_PAGE_SIZE: '4' };
const etherscanEnv = () => ({ TXA_ETHERSCAN_URL: explorer.url, TXA_ETHERSCAN_API_KEY: 'test-key', ...SYNC_ENV });

beforeAll(async () => {
  explorer = await replayServer();
});
afterAll(() => explorer.close());

beforeEach(async () => {
  explorer.reset(apiLists(history(30), 'etherscan'));
  s = sandbox();
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Sync'])).data.id;
  wallet = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
  key = (await s.txa(['keys', 'create', '--name', 'sync', '--access', 'write'])).stdout.trim();
});
afterEach(async () => {
  await srv?.stop();
  srv = undefined;
});

const serve = async (env: Record<string, string> = etherscanEnv(), args: string[] = []) => (srv = await startServe(s.env.TXA_DB!, args, env));
const status = async () => (await api(srv!, key, 'GET', `/wallets/${wallet}/sync`)).body.data;
const ended = (what: string) => until(async () => ((await status())?.status.match(/completed|failed/) ? status() : null), 30_000, what);

function stored(walletId: string): { rows: unknown[]; created: number } {
  const db = new Database(s.env.TXA_DB!, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT tx_hash, transfer_key, amount, direction, type, ts FROM transactions WHERE wallet_id = ? ORDER BY ts, tx_hash, transfer_key')
      .all(walletId);
    const created = db
      .prepare("SELECT count(*) FROM events WHERE type = 'transaction.created' AND json_extract(payload, '$.transaction.wallet_id') = ?")
      .pluck()
      .get(walletId) as number;
    return { rows, created };
  } finally {
    db.close();
  }
}

describe('POST/GET /wallets/:id/sync on txa serve', () => {
  it('answers 202 queued at once, runs in the worker, and ends completed with the counts; wallet.synced is logged', async () => {
    await serve();
    const post = await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    expect(post.status).toBe(202);
    expect(post.body.data).toMatchObject({ wallet_id: wallet, status: 'queued', new_transactions: 0, error: null });
    const done = await ended('the sync');
    expect(done).toMatchObject({
      id: post.body.data.id,
      status: 'completed',
      chain: 'ethereum',
      source: 'etherscan',
      new_transactions: 88,
      duplicates: 0,
      last_block: 2009,
      error: null,
    });
    expect(done.requests).toBe(explorer.calls.length);
    expect(done.last_synced).toEqual(expect.any(String));
    expect(stored(wallet).rows).toHaveLength(88);
    const events = await api(srv!, key, 'GET', `/events?workspace_id=${s.env.TXA_WORKSPACE}&type=wallet.synced`);
    expect(events.body.data.map((e: any) => JSON.stringify(e.payload))).toEqual([expect.stringContaining('"new_transactions":88')]);
    // The rows and events are the changes of the key that asked (docs/transfers.md "The audit trail"), from the explorer's lists.
    const keyId = (await s.json(['keys', 'list'])).data[0].member_id; // the key's member acts (docs/server.md "Teams")
    expect(events.body.data[0].payload.actor).toBe(keyId);
    const tx = (await api(srv!, key, 'GET', `/transactions?workspace_id=${s.env.TXA_WORKSPACE}&limit=1`)).body.data[0];
    const [created] = (await api(srv!, key, 'GET', `/transactions/${tx.id}/history?workspace_id=${s.env.TXA_WORKSPACE}`)).body.data;
    expect(created).toMatchObject({
      event: 'transaction.created',
      actor: keyId,
      source: { format: 'sync', sync: 'etherscan', chain: 'ethereum', list: expect.stringMatching(/^(txlist|txlistinternal|tokentx|txsBeaconWithdrawal)$/) },
    });
    // Again: a new record, nothing new to add.
    const again = await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    expect(again.body.data.id).not.toBe(post.body.data.id);
    await until(async () => (await status()).id === again.body.data.id && (await status()).status === 'completed', 30_000, 'the second sync');
    expect((await status()).new_transactions).toBe(0);
  });

  it('a sync that fails ends failed with the error code and message; the server goes on', async () => {
    explorer.always = { envelope: ENVELOPES.invalidKey };
    explorer.alwaysAfter = 0;
    await serve();
    await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    const done = await ended('the failed sync');
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ code: 'SYNC_UNAUTHORIZED', message: expect.stringContaining('Invalid API Key') });
    expect((await api(srv!, key, 'GET', '/health')).status).toBe(200);
  });

  it('without a key for Etherscan the sync fails SYNC_UNAUTHORIZED before any call', async () => {
    await serve({ TXA_ETHERSCAN_URL: explorer.url, ...SYNC_ENV });
    await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    expect((await ended('the sync')).error.code).toBe('SYNC_UNAUTHORIZED');
    expect(explorer.calls).toHaveLength(0);
  });

  it('a serve killed mid-sync resumes the sync at its next start from the cursors, nothing lost or repeated', async () => {
    explorer.stallFrom = 9;
    await serve();
    const post = await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    await until(() => explorer.calls.length >= 9, 30_000, 'the stalled call');
    await srv!.stop('SIGKILL');
    const partial = stored(wallet).rows.length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(88);
    explorer.stallFrom = Infinity;
    await serve();
    const done = await ended('the resumed sync');
    expect(done).toMatchObject({ id: post.body.data.id, status: 'completed', new_transactions: 88 });
    const after = stored(wallet);
    expect(after.rows).toHaveLength(88);
    expect(after.created).toBe(88);
  });
});

describe('syncs that would take the server down (hardening round 3)', () => {
  it('an explorer answer that never ends fails the sync with SYNC_FAILED; the server lives and serves', async () => {
    explorer.faults.push({ endless: true });
    await serve();
    await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    const done = await ended('the failed sync');
    expect(done).toMatchObject({ status: 'failed', error: { code: 'SYNC_FAILED', message: expect.stringMatching(/txlist: answered more than 64 MiB/) } });
    expect((await api(srv!, key, 'GET', '/health')).status).toBe(200);
    // The next sync, against a healthy explorer, gets everything.
    await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    await until(async () => ((await status()).status === 'completed' ? true : null), 30_000, 'the next sync');
    expect(stored(wallet).rows).toHaveLength(88);
  });

  it('a sync whose server died under it three times is failed at the next start, not resumed into a fourth death', async () => {
    explorer.stallFrom = 3;
    await serve();
    const post = await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    for (let death = 1; death <= 3; death++) {
      await until(() => explorer.calls.length >= 3, 30_000, `the stalled call of run ${death}`);
      await srv!.stop('SIGKILL');
      explorer.calls.length = 0;
      await serve();
    }
    const done = await ended('the given-up sync');
    expect(done).toMatchObject({
      id: post.body.data.id,
      status: 'failed',
      error: { code: 'SYNC_FAILED', message: expect.stringMatching(/stopped the server running it 3 times/) },
    });
    expect(explorer.calls).toHaveLength(0);
    // Asked again, it runs: the count is per record.
    explorer.stallFrom = Infinity;
    await api(srv!, key, 'POST', `/wallets/${wallet}/sync`);
    await until(async () => ((await status()).status === 'completed' ? true : null), 30_000, 'a new sync');
    expect(stored(wallet).rows).toHaveLength(88);
  });
});

describe('txa serve --sync-every', () => {
  it('queues a sync of every wallet whose explorer is available, at start and then every period', async () => {
    // Ethereum from a named Blockscout (no key); Polygon would need an Etherscan key: skipped.
    explorer.lists = apiLists(history(30), 'blockscout');
    const polygon = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'polygon'])).data.id;
    await serve({ TXA_BLOCKSCOUT_URL_ETHEREUM: explorer.url, ...SYNC_ENV }, ['--sync-every', '15m']);
    const done = await ended('the scheduled sync');
    expect(done).toMatchObject({ status: 'completed', source: 'blockscout' });
    expect(done.new_transactions).toBeGreaterThan(0);
    const skipped = await api(srv!, key, 'GET', `/wallets/${polygon}/sync`);
    expect([skipped.status, skipped.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('refuses a period that is no duration or shorter than a minute', async () => {
    for (const bad of ['15', '30s', '1d', 'm']) {
      const r = await s.txa(['serve', '--port', '0', '--sync-every', bad]);
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr).toContain('--sync-every must be a duration');
    }
  });

  it('accepts every duration its --help gives as an example', async () => {
    const help = (await s.txa(['serve', '--help'])).stdout.replace(/\s+/g, ' ');
    const examples = /--sync-every <duration> .*?\(([^;)]*)/.exec(help)?.[1]?.split(', ') ?? [];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(syncEveryMs(example), example).toBeGreaterThanOrEqual(60_000);
  });
});

describe('txa wallet sync against the API', () => {
  it('POSTs, polls until done, and prints the same --json body as the local sync (docs/sync.md)', async () => {
    await serve();
    const remote = sandbox({ TXA_BASE_URL: srv!.url, TXA_API_KEY: key, TXA_WORKSPACE: s.env.TXA_WORKSPACE! });
    const out = await remote.json(['wallet', 'sync', '--all']);
    expect(out).toEqual({
      success: true,
      data: [
        {
          wallet_id: wallet,
          chain: 'ethereum',
          source: 'etherscan',
          new_transactions: 88,
          duplicates: 0,
          requests: explorer.calls.length,
          last_block: 2009,
          last_synced: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    });
    // The local sync of the same ledger now: the same fields, nothing new.
    const local = await s.json(['wallet', 'sync', wallet], { env: etherscanEnv() });
    expect(Object.keys(local.data[0])).toEqual(Object.keys(out.data[0]));
    expect(local.data[0]).toMatchObject({ new_transactions: 0, last_block: 2009 });
  });

  it('a failed sync is its error, with the exit code of the local sync; --dry-run is local only', async () => {
    explorer.always = { envelope: ENVELOPES.invalidKey };
    explorer.alwaysAfter = 0;
    await serve();
    const remote = sandbox({ TXA_BASE_URL: srv!.url, TXA_API_KEY: key, TXA_WORKSPACE: s.env.TXA_WORKSPACE! });
    const r = await remote.txa(['wallet', 'sync', wallet, '--json']);
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'SYNC_UNAUTHORIZED', wallet_id: wallet, new_transactions: 0 });
    const dry = await remote.txa(['wallet', 'sync', wallet, '--dry-run']);
    expect([dry.exitCode, dry.stderr]).toEqual([2, expect.stringContaining('LOCAL_ONLY')]);
  });
});

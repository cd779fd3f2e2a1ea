/**
 * `txa wallet sync` run as a user runs it (the built bin/txa) against the replay explorer on
 * 127.0.0.1: the --json shape of docs/sync.md, human output, exit codes, and a process killed between pages.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { BIN, sandbox, type Sandbox } from '../helpers/cli.js';
import { ENVELOPES, replayServer, type ReplayServer } from '../helpers/explorer-replay.js';
import { WALLET, apiLists, history } from '../helpers/sync-history.js';

let server: ReplayServer;
let s: Sandbox;
let wallet: string;

beforeAll(async () => {
  server = await replayServer();
});
afterAll(() => server.close());

beforeEach(async () => {
  server.reset(apiLists(history(30), 'etherscan'));
  s = sandbox({ TXA_ETHERSCAN_URL: server.url, TXA_ETHERSCAN_API_KEY: 'test-key', TXA_SYNC_RPS: '1000', TXA_SYNC_PAGE_SIZE: '4' });
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Sync'])).data.id;
  wallet = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
});

/** A wallet's rows as stored, without ids, in a stable order; and how many transaction.created events the ledger holds. */
function ledger(walletId: string): { rows: unknown[]; created: number } {
  const db = new Database(s.env.TXA_DB!, { readonly: true });
  try {
    const rows = db
      .prepare(
        'SELECT tx_hash, transfer_key, from_address, to_address, token_symbol, token_address, amount, direction, type, ts FROM transactions WHERE wallet_id = ? ORDER BY ts, tx_hash, transfer_key',
      )
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

describe('txa wallet sync', () => {
  it('--json prints the docs/sync.md shape; the wallet gets last_synced and one wallet.synced', async () => {
    const out = await s.json(['wallet', 'sync', wallet]);
    expect(out).toEqual({
      success: true,
      data: [
        {
          wallet_id: wallet,
          chain: 'ethereum',
          source: 'etherscan',
          new_transactions: 28 + 60,
          duplicates: 0,
          requests: server.calls.length,
          last_block: 2009,
          last_synced: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        },
      ],
    });
    const listed = await s.json(['wallet', 'list']);
    expect(listed.data[0].last_synced).toBe(out.data[0].last_synced);
    const events = await s.json(['events', 'list', '--type', 'wallet.synced']);
    expect(events.data).toHaveLength(1);
    expect(ledger(wallet).created).toBe(88);
  });

  it('in a pipe: one TSV row per wallet on stdout, plain progress lines on stderr; a second sync adds nothing', async () => {
    const r = await s.txa(['wallet', 'sync', '--all']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\t').slice(0, 7)).toEqual([wallet, 'ethereum', 'etherscan', '88', '0', String(server.calls.length), '2009']);
    expect(r.stderr).toMatch(new RegExp(`^Syncing ${wallet} 0% txlist, block 0, 0 new$`, 'm'));
    expect(r.stderr).toMatch(new RegExp(`^Synced ${wallet}: 88 new, 0 already in the ledger \\(\\d+ requests to etherscan\\)$`, 'm'));
    const again = await s.json(['wallet', 'sync', wallet]);
    expect(again.data[0]).toMatchObject({ new_transactions: 0, last_block: 2009 });
  });

  it('names what to sync: no ids and no --all is a usage error', async () => {
    const r = await s.txa(['wallet', 'sync']);
    expect([r.exitCode, r.stderr.split('\n')[0]]).toEqual([2, 'error: USAGE_ERROR (ids): name the wallets to sync, or pass --all']);
    expect((await s.txa(['wallet', 'sync', 'wal_nope'])).stderr).toMatch(/^error: WALLET_NOT_FOUND: wallet wal_nope not found$/m);
  });

  it('a TXA_BLOCKSCOUT_URL_ of no known chain is a usage error naming the chains, before any call', async () => {
    for (const name of ['TXA_BLOCKSCOUT_URL_ZKSYNC_ERA', 'TXA_BLOCKSCOUT_URL_base']) {
      const r = await s.txa(['wallet', 'sync', wallet], { env: { [name]: server.url } });
      expect([r.exitCode, r.stderr.split('\n')[0]], name).toEqual([
        2,
        `error: USAGE_ERROR (${name}): ${name} names no chain txa knows: use TXA_BLOCKSCOUT_URL_<CHAIN> with a chain of ethereum, polygon, arbitrum, bsc, base, optimism, linea, avalanche, gnosis, scroll, zksync, blast, mantle, celo`,
      ]);
    }
    expect(server.calls).toHaveLength(0);
  });

  it("takes the profile's etherscan_api_key when TXA_ETHERSCAN_API_KEY is unset, and config list masks it", async () => {
    s.env.TXA_ETHERSCAN_API_KEY = '';
    const key = 'ES0123456789ABCDEFGHIJKLMNOPQRSTUV';
    await s.json(['config', 'set', 'etherscan_api_key', key]);
    expect((await s.json(['config', 'list'])).data.values.etherscan_api_key).toBe(`${key.slice(0, 13)}…`);
    await s.json(['wallet', 'sync', wallet]);
    expect(server.calls.every((c) => c.get('apikey') === key)).toBe(true);
  });

  it('exit codes: 4 for a refused key, 5 for a rate limit that never lifts, 1 for an unserved chain', async () => {
    server.always = { envelope: ENVELOPES.invalidKey };
    const key = await s.txa(['wallet', 'sync', wallet]);
    expect(key.exitCode).toBe(4);
    expect(key.stderr).toContain(`\nerror: SYNC_UNAUTHORIZED: wallet ${wallet}: Etherscan refused the API key: Invalid API Key; 0 new transactions kept\n`);
    server.always = { envelope: ENVELOPES.rateLimit };
    const limit = await s.txa(['wallet', 'sync', wallet, '--json']);
    expect(limit.exitCode).toBe(5);
    expect(JSON.parse(limit.stderr).error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', wallet_id: wallet, new_transactions: 0 });
    server.always = { envelope: ENVELOPES.freeTierChain };
    const bsc = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'bsc'])).data.id;
    const chain = await s.txa(['wallet', 'sync', bsc]);
    expect(chain.exitCode).toBe(1);
    expect(chain.stderr).toMatch(/error: SYNC_UNSUPPORTED_CHAIN \(chain\): wallet \S+: Etherscan does not serve bsc \(chain id 56\) on this plan/);
  });

  it('killed with SIGKILL between pages, the next sync neither loses nor repeats a row', async () => {
    // A reference: the same history synced without interruption into a second workspace.
    const ref = sandbox({ ...s.env, TXA_WORKSPACE: '' });
    ref.env.TXA_WORKSPACE = (await ref.json(['workspace', 'create', 'Reference'])).data.id;
    const refWallet = (await ref.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
    await ref.json(['wallet', 'sync', refWallet]);
    const expected = ledger(refWallet).rows;
    for (const stallAt of [3, 9, 17]) {
      server.calls.length = 0;
      server.stallFrom = stallAt;
      const child = execa(BIN, ['wallet', 'sync', wallet], { env: s.env, reject: false, stdin: 'ignore' });
      while (server.calls.length < stallAt) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGKILL');
      expect((await child).signal).toBe('SIGKILL');
      server.stallFrom = Infinity;
    }
    const partial = ledger(wallet).rows.length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expected.length);
    await s.json(['wallet', 'sync', wallet]);
    const after = ledger(wallet);
    expect(after.rows).toEqual(expected);
    expect(after.created).toBe(expected.length);
  });
});

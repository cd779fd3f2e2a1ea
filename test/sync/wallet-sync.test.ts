/**
 * Wallet sync on a real ledger against the replay explorer (test/helpers/explorer-replay.ts):
 * the same rows as the CSV exports of the same history, paging past servers that cap pages,
 * incremental syncs, every fault of sync.md retried or reported, and nothing lost or repeated.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../../src/engine/engine.js';
import { addWallet } from '../../src/engine/wallets.js';
import { importFile } from '../../src/engine/imports.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { WalletSync, type SyncOptions } from '../../src/sync/wallet-sync.js';
import { syncSettings } from '../../src/sync/settings.js';
import { tempEngine } from '../helpers/engine.js';
import { txaRejectionOf } from '../helpers/errors.js';
import { ENVELOPES, replayServer, type ReplayServer } from '../helpers/explorer-replay.js';
import { WALLET, apiLists, blockscoutTransactions, csvFiles, hash, history, tsOf } from '../helpers/sync-history.js';

let engine: Engine;
let ws: string;
let dir: string;
let server: ReplayServer;

beforeEach(async () => {
  ({ engine, ws, dir } = tempEngine('enterprise'));
  server = await replayServer(apiLists(history(), 'etherscan'));
});
afterEach(async () => {
  engine.close();
  await server.close();
});

const env = (extra: Record<string, string> = {}) => ({
  TXA_ETHERSCAN_URL: server.url,
  TXA_ETHERSCAN_API_KEY: 'test-key',
  TXA_SYNC_RPS: '1000',
  TXA_SYNC_PAGE_SIZE: '5',
  ...extra,
});

function syncer(extra: Record<string, string> = {}, opts: SyncOptions = {}) {
  return new WalletSync(engine, ws, syncSettings(env(extra)), opts);
}

/** Every stored field of a wallet's rows but the id and wallet, in a stable order. */
function rowsOf(walletId: string, where = '1'): unknown[] {
  return engine.db
    .prepare(
      `SELECT tx_hash, transfer_key, chain, from_address, to_address, token_symbol, token_address, token_decimals, amount, fiat_cents, direction, type, ts, notes, method
       FROM transactions WHERE wallet_id = ? AND ${where} ORDER BY ts, tx_hash, transfer_key`,
    )
    .all(walletId);
}

const count = (sql: string, ...args: unknown[]) =>
  engine.db
    .prepare(sql)
    .pluck()
    .get(...args) as number;

function importCsvs(walletId: string, workspaceId = ws) {
  const files = csvFiles(history());
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, `${name}.csv`);
    writeFileSync(path, text);
    importFile(engine, workspaceId, path, { walletId });
  }
}

describe('one identity with the CSV import', () => {
  it('the synced rows equal, field for field, the rows imported from the explorer CSV exports of the same wallet', async () => {
    const synced = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    const result = await syncer().sync(synced);
    const other = createWorkspace(engine, { name: 'Imported', tier: 'enterprise' }).id;
    const imported = addWallet(engine, other, { address: WALLET, chain: 'ethereum' }).id;
    importCsvs(imported, other);
    // The API alone has the genesis allocation and the beacon withdrawals.
    expect(rowsOf(synced, "tx_hash NOT LIKE 'GENESIS_%' AND tx_hash NOT LIKE 'beacon-withdrawal:%'")).toEqual(rowsOf(imported));
    expect(rowsOf(imported)).toHaveLength(26);
    // Both name each transaction's method alike (rules match on it); internal calls have none.
    const methods = engine.db.prepare('SELECT DISTINCT method FROM transactions WHERE wallet_id = ? ORDER BY method').pluck().all(imported);
    expect(methods).toContain('Transfer');
    expect(methods.length).toBeGreaterThan(2);
    expect(result).toMatchObject({ wallet_id: synced, chain: 'ethereum', source: 'etherscan', new_transactions: 28, duplicates: 0, last_block: 1011 });
    // Where each row stands in its chain (docs/accounting.md "Order within one second"): the sync
    // keeps the API's block and transaction index (none for internal rows and withdrawals); the
    // CSV exports give the block (Blockno) only.
    const places = (walletId: string) =>
      engine.db
        .prepare(
          `SELECT tx_hash, transfer_key, block, block_position FROM transactions WHERE wallet_id = ? AND tx_hash NOT LIKE 'GENESIS_%' AND tx_hash NOT LIKE 'beacon-withdrawal:%' ORDER BY tx_hash, transfer_key`,
        )
        .all(walletId) as { tx_hash: string; transfer_key: string; block: number | null; block_position: number | null }[];
    const lists = apiLists(history(), 'etherscan');
    const blockOf = new Map([...lists.txlist!, ...lists.tokentx!, ...lists.txlistinternal!].map((r) => [String(r.hash), Number(r.blockNumber)]));
    const placed = places(synced);
    expect(placed.every((p) => p.block === blockOf.get(p.tx_hash))).toBe(true);
    const indexOf = new Map([...lists.txlist!, ...lists.tokentx!].map((r) => [`${String(r.hash)} ${r.blockNumber}`, Number(r.transactionIndex)]));
    const withIndex = placed.filter((p) => !p.transfer_key.startsWith('i:'));
    expect(withIndex.length).toBeGreaterThan(10);
    expect(withIndex.filter((p) => p.block_position === null)).toEqual([]);
    expect(placed.filter((p) => p.transfer_key.startsWith('i:')).every((p) => p.block_position === null)).toBe(true);
    expect(withIndex.some((p) => p.block_position === indexOf.get(`${p.tx_hash} ${p.block}`))).toBe(true);
    expect(places(imported).map((p) => [p.tx_hash, p.block, p.block_position])).toEqual(placed.map((p) => [p.tx_hash, p.block, null]));
  });

  it('the CSV exports imported into the synced wallet are all duplicates', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    await syncer().sync(w);
    const before = count('SELECT count(*) FROM transactions WHERE wallet_id = ?', w);
    importCsvs(w);
    expect(count('SELECT count(*) FROM transactions WHERE wallet_id = ?', w)).toBe(before);
  });

  it('applies the rules of docs/sync.md', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    await syncer().sync(w);
    const of = (label: string) =>
      engine.db
        .prepare('SELECT type, direction, amount, transfer_key FROM transactions WHERE wallet_id = ? AND tx_hash = ? ORDER BY transfer_key')
        .all(w, hash(label));
    // A failed tx pays its fee (90000 × 22 gwei) and moves nothing; its internal row is ignored.
    expect(of('failed')).toEqual([{ type: 'fee', direction: 'outflow', amount: '0.00198', transfer_key: 'fee:ETH:outflow:0' }]);
    // Received: no fee (the sender paid it).
    expect(of('in')).toEqual([{ type: 'transfer', direction: 'inflow', amount: '2', transfer_key: 't:ETH:inflow:0' }]);
    // A swap out of USDC: the fee, the token leg and the ETH a contract paid back (internal).
    expect(of('swap-out')).toEqual([
      { type: 'fee', direction: 'outflow', amount: '0.00252', transfer_key: 'fee:ETH:outflow:0' },
      { type: 'transfer', direction: 'inflow', amount: '0.45', transfer_key: 'i:ETH:inflow:0' },
      { type: 'transfer', direction: 'outflow', amount: '1500.25', transfer_key: 't:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48:outflow:0' },
      { type: 'swap', direction: 'outflow', amount: '0', transfer_key: 't:ETH:outflow:0' },
    ]);
    expect(of('airdrop').map((r: any) => r.transfer_key)).toEqual([
      't:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2:inflow:0',
      't:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2:inflow:1',
    ]);
    expect(of('bridge').map((r: any) => r.type)).toEqual(['fee', 'bridge']);
    expect(of('unverified').map((r: any) => r.type)).toEqual(['fee', 'contract_call']);
    const genesis = engine.db.prepare("SELECT from_address, amount, direction FROM transactions WHERE tx_hash LIKE 'GENESIS_%'").all();
    expect(genesis).toEqual([{ from_address: '', amount: '5', direction: 'inflow' }]);
    // Beacon withdrawals are in gwei; a zero one adds nothing.
    const withdrawals = engine.db.prepare("SELECT tx_hash, amount, ts FROM transactions WHERE tx_hash LIKE 'beacon-withdrawal:%'").all();
    expect(withdrawals).toEqual([{ tx_hash: 'beacon-withdrawal:7', amount: '0.032123456', ts: tsOf(1003) }]);
  });
});

describe('paging', () => {
  it('walks past a server that caps pages below the size asked, re-asking from the last block, with no row lost or repeated', async () => {
    server.lists = apiLists(history(40), 'etherscan');
    server.cap = 3;
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    const r = await syncer().sync(w);
    // The reference: the same history in one uncapped page per list, in another workspace.
    const refWs = createWorkspace(engine, { name: 'Ref', tier: 'enterprise' }).id;
    const reference = addWallet(engine, refWs, { address: WALLET, chain: 'ethereum' }).id;
    server.cap = Infinity;
    await new WalletSync(engine, refWs, syncSettings(env({ TXA_SYNC_PAGE_SIZE: '10000' }))).sync(reference);
    expect(rowsOf(w)).toEqual(rowsOf(reference));
    expect(r.new_transactions).toBe(28 + 80);
    // Each call after the first of a list starts at the block the previous one ended in.
    const txlist = server.calls.filter((c) => c.get('action') === 'txlist').map((c) => Number(c.get('startblock')));
    expect(txlist.slice(0, 4)).toEqual([0, 1001, 1003, 1005]);
    expect(server.calls.every((c) => c.get('offset') === '5' || c.get('offset') === '10000')).toBe(true);
  });

  it('a block holding a full page of one list is SYNC_FAILED naming it, not a silent gap', async () => {
    server.lists = apiLists(history(6), 'etherscan');
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    const err = await txaRejectionOf(syncer({ TXA_SYNC_PAGE_SIZE: '3' }).sync(w));
    expect(err.code).toBe('SYNC_FAILED');
    expect(err.message).toMatch(/block 2000 holds at least 3 rows of txlist/);
    expect(err.hint).toMatch(/TXA_SYNC_PAGE_SIZE/);
  });

  it('a second sync asks from the stored cursors and adds only what is new', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    await syncer().sync(w);
    const calls = server.calls.length;
    server.lists = apiLists(history(6), 'etherscan');
    const r = await syncer().sync(w);
    expect(r).toMatchObject({ new_transactions: 12, duplicates: expect.any(Number), last_block: 2001 });
    const starts = server.calls
      .slice(calls)
      .filter((c) => c.get('action') === 'txlist')
      .map((c) => c.get('startblock'));
    expect(starts[0]).toBe('1012');
    expect(count('SELECT count(*) FROM transactions WHERE wallet_id = ?', w)).toBe(28 + 12);
    expect(count("SELECT count(*) FROM events WHERE type = 'transaction.created'")).toBe(28 + 12);
    expect(count("SELECT count(*) FROM events WHERE type = 'wallet.synced'")).toBe(2);
    // Like every wallet event (docs/transfers.md), it says who made the change.
    expect(count("SELECT count(*) FROM events WHERE type = 'wallet.synced' AND payload ->> '$.actor' = 'cli'")).toBe(2);
  });

  it('--dry-run counts what a sync would add and writes nothing, cursors included', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    const r = await syncer({}, { dryRun: true }).sync(w);
    expect(r).toMatchObject({ new_transactions: 28, last_synced: null });
    expect(count('SELECT count(*) FROM transactions')).toBe(0);
    expect(count('SELECT count(*) FROM sync_cursors')).toBe(0);
    expect(count("SELECT count(*) FROM events WHERE type IN ('transaction.created', 'wallet.synced')")).toBe(0);
  });
});

describe('faults', () => {
  it('retries NOTOK rate limits, HTTP 429 and 500, malformed JSON and a connection reset mid-page, then gets everything', async () => {
    server.faults.push(
      { envelope: ENVELOPES.rateLimit },
      { status: 429 },
      { status: 500 },
      { text: '{"status":"1","message":"OK","result":[{"blockNu' },
      { reset: true },
    );
    const notices: string[] = [];
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    const r = await syncer({}, { onNotice: (m) => notices.push(m) }).sync(w);
    expect(r.new_transactions).toBe(28);
    expect(notices).toHaveLength(5);
    expect(notices[0]).toMatch(/^Etherscan txlist: Max rate limit reached, please use API Key for higher rate limit; trying again in/);
    expect(notices.slice(1).map((n) => n.split(';')[0])).toEqual([
      'Etherscan txlist: HTTP 429 (rate limit)',
      'Etherscan txlist: HTTP 500',
      'Etherscan txlist: the answer is not JSON',
      expect.stringMatching(/^Etherscan txlist: connection failed/),
    ]);
  });

  it('a server that keeps failing: SYNC_FAILED naming the wallet, and the batches stored before it stay', async () => {
    server.always = { status: 502 };
    server.alwaysAfter = 6;
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    const err = await txaRejectionOf(syncer().sync(w));
    expect(err.code).toBe('SYNC_FAILED');
    expect(err.message).toMatch(new RegExp(`^wallet ${w}: Etherscan failed for ethereum: \\w+: HTTP 502 \\(after 6 tries\\); \\d+ new transactions kept$`));
    const kept = count('SELECT count(*) FROM transactions WHERE wallet_id = ?', w);
    expect(kept).toBeGreaterThan(0);
    expect(err.extra).toMatchObject({ wallet_id: w, new_transactions: kept });
    // The next sync goes on from the cursors and ends with the same rows as an uninterrupted one.
    server.always = undefined;
    await syncer().sync(w);
    expect(count('SELECT count(*) FROM transactions WHERE wallet_id = ?', w)).toBe(28);
  });

  it('a rate limit that never lifts is RATE_LIMIT_EXCEEDED; a daily quota is reported at once', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    server.always = { envelope: ENVELOPES.rateLimit };
    expect((await txaRejectionOf(syncer().sync(w))).code).toBe('RATE_LIMIT_EXCEEDED');
    expect(server.calls).toHaveLength(6);
    server.always = { envelope: ENVELOPES.dailyLimit };
    const err = await txaRejectionOf(syncer().sync(w));
    expect([err.code, server.calls.length]).toEqual(['RATE_LIMIT_EXCEEDED', 7]);
  });

  it('an invalid key is SYNC_UNAUTHORIZED; a missing one too, before any call', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    server.always = { envelope: ENVELOPES.invalidKey };
    const err = await txaRejectionOf(syncer().sync(w));
    expect([err.code, err.exitCode, server.calls.length]).toEqual(['SYNC_UNAUTHORIZED', 4, 1]);
    expect(err.message).toMatch(/Etherscan refused the API key: Invalid API Key/);
    const missing = await txaRejectionOf(syncer({ TXA_ETHERSCAN_API_KEY: '' }).sync(w));
    expect([missing.code, server.calls.length]).toEqual(['SYNC_UNAUTHORIZED', 1]);
    expect(missing.hint).toMatch(/TXA_BLOCKSCOUT_URL_ETHEREUM=https:\/\/eth\.blockscout\.com\/api/);
  });

  it('a chain the plan does not serve is SYNC_UNSUPPORTED_CHAIN with the way out', async () => {
    const w = addWallet(engine, ws, { address: WALLET, chain: 'bsc' }).id;
    server.always = { envelope: ENVELOPES.freeTierChain };
    const err = await txaRejectionOf(syncer().sync(w));
    expect([err.code, err.field]).toEqual(['SYNC_UNSUPPORTED_CHAIN', 'chain']);
    expect(err.message).toMatch(/Etherscan does not serve bsc \(chain id 56\) on this plan/);
    expect(server.calls[0]!.get('chainid')).toBe('56');
  });
});

describe('Blockscout and rollups', () => {
  it("reads Blockscout's dialect, retries its status 2 partial answer, and skips delegatecalls", async () => {
    const lists = apiLists(history(), 'blockscout');
    lists.txlistinternal!.push({ ...lists.txlistinternal![1]!, callType: 'delegatecall', index: '9' });
    server.lists = lists;
    server.transactions = blockscoutTransactions(history());
    server.faults.push({
      envelope: { status: '2', message: 'Some internal transactions within this block range have not yet been processed', result: lists.txlist!.slice(0, 2) },
    });
    const w = addWallet(engine, ws, { address: WALLET, chain: 'base' }).id;
    const r = await syncer({ TXA_BLOCKSCOUT_URL_BASE: server.url }).sync(w);
    // No beacon withdrawals on Blockscout; everything else as on Etherscan.
    expect(r).toMatchObject({ source: 'blockscout', new_transactions: 27 });
    expect(server.calls.every((c) => !c.has('chainid') && !c.has('apikey'))).toBe(true);
    expect(count("SELECT count(*) FROM transactions WHERE transfer_key LIKE 'i:%'")).toBe(2);
  });

  it('status 2 that never clears is SYNC_FAILED (the partial rows are not taken as the list)', async () => {
    server.always = { envelope: { status: '2', message: 'Internal transactions for this transaction have not been processed yet', result: [] } };
    const w = addWallet(engine, ws, { address: WALLET, chain: 'base' }).id;
    const err = await txaRejectionOf(syncer({ TXA_BLOCKSCOUT_URL_BASE: server.url }).sync(w));
    expect(err.code).toBe('SYNC_FAILED');
    expect(err.message).toMatch(/not indexed yet/);
    expect(count('SELECT count(*) FROM transactions')).toBe(0);
  });

  it('adds the L1 data fee of an OP-stack rollup to the gas fee, once per tx', async () => {
    const h = history();
    h.normal[2]!.l1Fee = 87_936_499_371_752n;
    server.lists = apiLists(h, 'etherscan');
    const w = addWallet(engine, ws, { address: WALLET, chain: 'base' }).id;
    await syncer().sync(w);
    // 21000 × 20 gwei + 87936499371752 wei.
    const fee = engine.db.prepare("SELECT amount FROM transactions WHERE tx_hash = ? AND type = 'fee'").pluck().all(hash('pay'));
    expect(fee).toEqual(['0.000507936499371752']);
    expect(server.calls[0]!.get('chainid')).toBe('8453');
  });

  describe("the L1 fee from Blockscout's REST API (its txlist rows have none)", () => {
    const l1History = () => {
      const h = history();
      h.normal[2]!.l1Fee = 87_936_499_371_752n;
      return h;
    };
    const feeOfPay = () => engine.db.prepare("SELECT amount FROM transactions WHERE tx_hash = ? AND type = 'fee'").pluck().all(hash('pay'));
    const restCalls = () => server.calls.filter((c) => c.has('transaction')).map((c) => c.get('transaction'));

    it('asks once for each transaction the wallet sent and adds its l1_fee: the same fees as from Etherscan', async () => {
      const h = l1History();
      server.lists = apiLists(h, 'blockscout');
      server.transactions = blockscoutTransactions(h);
      const w = addWallet(engine, ws, { address: WALLET, chain: 'base' }).id;
      const r = await syncer({ TXA_BLOCKSCOUT_URL_BASE: server.url }).sync(w);
      expect(feeOfPay()).toEqual(['0.000507936499371752']);
      const sent = h.normal.filter((t) => t.from === WALLET).map((t) => t.hash);
      expect(restCalls().sort()).toEqual([...sent].sort());
      expect(r.requests).toBe(server.calls.length);
      // The same wallet synced from Etherscan pays the same fees.
      const fees = (walletId: string) =>
        engine.db.prepare("SELECT tx_hash, amount FROM transactions WHERE wallet_id = ? AND type = 'fee' ORDER BY tx_hash").all(walletId);
      const other = createWorkspace(engine, { name: 'Etherscan twin' }).id;
      server.reset(apiLists(h, 'etherscan'));
      const twin = addWallet(engine, other, { address: WALLET, chain: 'base' }).id;
      await new WalletSync(engine, other, syncSettings(env())).sync(twin);
      expect(fees(w)).toEqual(fees(twin));
    });

    it('a transaction not indexed yet (404) is asked again; one that never appears is SYNC_FAILED with nothing half-written', async () => {
      const h = l1History();
      const bodies = blockscoutTransactions(h);
      server.lists = apiLists(h, 'blockscout');
      server.transactions = { ...bodies };
      delete server.transactions[hash('pay')];
      const w = addWallet(engine, ws, { address: WALLET, chain: 'base' }).id;
      const notices: string[] = [];
      const onNotice = (m: string) => {
        notices.push(m);
        server.transactions[hash('pay')] = bodies[hash('pay')]!;
      };
      await syncer({ TXA_BLOCKSCOUT_URL_BASE: server.url }, { onNotice }).sync(w);
      expect(notices[0]).toMatch(/not indexed yet/);
      expect(feeOfPay()).toEqual(['0.000507936499371752']);

      server.reset(apiLists(h, 'blockscout'));
      const never = createWorkspace(engine, { name: 'never' }).id;
      const again = addWallet(engine, never, { address: WALLET, chain: 'base' });
      const err = await txaRejectionOf(new WalletSync(engine, never, syncSettings(env({ TXA_BLOCKSCOUT_URL_BASE: server.url }))).sync(again.id));
      expect(err.code).toBe('SYNC_FAILED');
      expect(err.message).toMatch(/not indexed yet/);
      expect(count("SELECT count(*) FROM transactions WHERE wallet_id = ? AND type = 'fee'", again.id)).toBe(0);
    });

    it('a chain without an L1 fee, or an Etherscan row that has one, asks nothing more', async () => {
      server.lists = apiLists(history(), 'blockscout');
      const g = addWallet(engine, ws, { address: WALLET, chain: 'gnosis' }).id;
      await syncer({ TXA_BLOCKSCOUT_URL_GNOSIS: server.url }).sync(g);
      expect(restCalls()).toEqual([]);
    });
  });
});

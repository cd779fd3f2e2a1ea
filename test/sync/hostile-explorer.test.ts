/**
 * Explorers that lie, stall or never end (docs/reliability.md, Hardening round 3; docs/sync.md,
 * Rows a sync refuses): each answer either makes the sync fail with SYNC_FAILED naming the list
 * and the row or block, cursor unchanged, or is taken as one clean sync takes it; a healthy
 * explorer afterwards always ends with the rows of one clean sync.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { addWallet } from '../../src/engine/wallets.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { WalletSync } from '../../src/sync/wallet-sync.js';
import { syncSettings } from '../../src/sync/settings.js';
import { tempEngine } from '../helpers/engine.js';
import { txaRejectionOf } from '../helpers/errors.js';
import { replayServer, type ReplayServer, type Row } from '../helpers/explorer-replay.js';
import { WALLET, addr, apiLists, hash, history, withRevertedPayout } from '../helpers/sync-history.js';

let engine: Engine;
let ws: string;
let server: ReplayServer;
/** Rows of one clean sync of the history, by list. */
let lists: Record<string, Row[]>;

beforeEach(async () => {
  ({ engine, ws } = tempEngine('enterprise'));
  lists = apiLists(history(), 'etherscan');
  server = await replayServer(lists);
});
afterEach(async () => {
  engine.close();
  await server.close();
});

const env = (extra: Record<string, string> = {}) => ({
  TXA_ETHERSCAN_URL: server.url,
  TXA_ETHERSCAN_API_KEY: 'k',
  TXA_SYNC_RPS: '1000',
  TXA_SYNC_PAGE_SIZE: '5',
  ...extra,
});
const sync = (wallet: string, extra: Record<string, string> = {}, notices: string[] = []) =>
  new WalletSync(engine, ws, syncSettings(env(extra)), { onNotice: (m) => notices.push(m) }).sync(wallet);
const count = (sql: string, ...args: unknown[]) =>
  engine.db
    .prepare(sql)
    .pluck()
    .get(...args) as number;
const rowsOf = (wallet: string) =>
  engine.db
    .prepare('SELECT tx_hash, transfer_key, amount, direction, type, ts FROM transactions WHERE wallet_id = ? ORDER BY tx_hash, transfer_key')
    .all(wallet);
const cursors = (wallet: string) => engine.db.prepare('SELECT list, block FROM sync_cursors WHERE wallet_id = ? ORDER BY list').all(wallet);

/** The rows one clean sync of `rows` stores, synced into a wallet of a second workspace. */
async function cleanRows(rows: Record<string, Row[]>): Promise<unknown[]> {
  const other = createWorkspace(engine, { name: 'Reference' }).id;
  const wallet = addWallet(engine, other, { address: WALLET, chain: 'ethereum' }).id;
  server.reset(rows);
  await new WalletSync(engine, other, syncSettings(env())).sync(wallet);
  server.reset(rows);
  return rowsOf(wallet);
}

const wallet = () => addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;

describe('answers that never end or never finish', () => {
  it('an endless body is SYNC_FAILED after 64 MiB, at once and without a retry', async () => {
    const w = wallet();
    server.faults.push({ endless: true });
    const before = process.memoryUsage().rss;
    const err = await txaRejectionOf(sync(w));
    expect([err.code, server.calls.length]).toEqual(['SYNC_FAILED', 1]);
    expect(err.message).toMatch(/Etherscan failed for ethereum: txlist: answered more than 64 MiB/);
    expect(err.extra).toMatchObject({ wallet_id: w, new_transactions: 0 });
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024);
    expect(count('SELECT count(*) FROM sync_cursors')).toBe(0);
  });

  it('a body that drips in is given up at the deadline and tried again like a 5xx', async () => {
    const w = wallet();
    server.faults.push({ drip: true, dripMs: 200 });
    const notices: string[] = [];
    const started = Date.now();
    const r = await sync(w, { TXA_SYNC_TIMEOUT: '1' }, notices);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(notices[0]).toMatch(/^Etherscan txlist: no complete answer within 1 s; trying again/);
    expect(r.new_transactions).toBe(28);
  });

  it('a server that always drips: SYNC_FAILED after the retries, naming the deadline', async () => {
    const w = wallet();
    server.always = { drip: true, dripMs: 300 };
    const err = await txaRejectionOf(sync(w, { TXA_SYNC_TIMEOUT: '0.5' }));
    expect(err.code).toBe('SYNC_FAILED');
    expect(err.message).toMatch(/txlist: no complete answer within 0\.5 s \(after 6 tries\)/);
  });

  it('TXA_SYNC_TIMEOUT must be a positive number of seconds up to 600', () => {
    for (const bad of ['0', '-1', 'x', '601']) {
      let code = '';
      try {
        syncSettings(env({ TXA_SYNC_TIMEOUT: bad }));
      } catch (e) {
        code = (e as { code: string }).code;
      }
      expect(code).toBe('USAGE_ERROR');
    }
  });
});

describe('paging that makes no progress', () => {
  it('a server that ignores startblock is SYNC_FAILED naming the list and block, after two calls', async () => {
    const w = wallet();
    server.ignoreStart = true;
    const err = await txaRejectionOf(sync(w));
    expect(err.code).toBe('SYNC_FAILED');
    expect(err.message).toMatch(
      /the explorer's txlist for 0xa1a1\S+ answered a row of block 0, before the block asked from: it ignores startblock \(asked from block \d+\)/,
    );
    expect(err.extra).toMatchObject({ list: 'txlist' });
    expect(server.calls.length).toBe(2);
    // What came before stays, and a healthy explorer completes it.
    const expected = await cleanRows(lists);
    await sync(w);
    expect(rowsOf(w)).toEqual(expected);
  });

  it('a row of an earlier block repeated on every page is SYNC_FAILED, not a page asked for ever', async () => {
    const w = wallet();
    const stale = lists.txlist![1]!;
    server.mangle = (action, page, q) => (action === 'txlist' && q.get('startblock') !== '0' ? [stale, ...page] : page);
    const err = await txaRejectionOf(sync(w));
    expect(err.message).toMatch(/txlist for \S+ answered a row of block 1000, before the block asked from/);
    expect(server.calls.length).toBe(2);
  });

  it('a block that brings new rows on every call is SYNC_FAILED after 5 calls', async () => {
    const w = wallet();
    let n = 0;
    const base = lists.txlist![1]!;
    server.mangle = (action, page, q) => (action === 'txlist' ? [{ ...base, blockNumber: q.get('startblock')!, hash: hash(`drift-${++n}`) }] : page);
    const err = await txaRejectionOf(sync(w));
    expect(err.message).toMatch(/txlist for \S+ brought new rows of block 0 in each of 5 calls \(asked from block 0\)/);
    expect(server.calls.length).toBe(5);
  });
});

/** The history with one txlist row's fields changed. */
function txlistWith(i: number, fields: Partial<Row>): Record<string, Row[]> {
  const txlist = lists.txlist!.map((r, j) => (j === i ? { ...r, ...fields } : r));
  return { ...lists, txlist };
}

describe('rows that cannot be true', () => {
  const cases: [string, number, Partial<Row>, RegExp][] = [
    ['a 25-digit blockNumber', 3, { blockNumber: '1'.repeat(25) }, /blockNumber "1{25}" is not a block number/],
    ['a block beyond any chain', 3, { blockNumber: '99999999999' }, /is not a block number \(0 to 10000000000\)/],
    ['a 20-digit timeStamp', 3, { timeStamp: '9'.repeat(20) }, /timeStamp "9{20}" is not a time between 2015-07-30 and now/],
    ['a timeStamp in the future', 3, { timeStamp: String(Math.floor(Date.now() / 1000) + 10 * 86400) }, /is not a time between/],
    ['a value above 2^256', 2, { value: (2n ** 256n).toString() }, /value "\d{78}" is beyond 2\^256/],
    ['a 100-digit value', 2, { value: '1'.repeat(100) }, /value "1{100}" is beyond 2\^256/],
    ['an outflow without from', 2, { from: '' }, /from "" is missing/],
    ['a malformed hash', 2, { hash: '0x1234' }, /hash "0x1234" is not a transaction hash/],
    ['a malformed to', 2, { to: '0xnothex' }, /to "0xnothex" is not an address/],
    ['a nested value', 2, { input: { deep: [[1]] } as unknown as string }, /input \{"deep":\[\[1\]\]\} is not a plain value/],
    ['a fractional gasPrice', 2, { gasPrice: '1.5' }, /gasPrice "1\.5" is not a whole number/],
    ['an isError that is no flag', 2, { isError: 'yes' }, /isError "yes" is not 0 or 1/],
  ];
  it.each(cases)('%s: SYNC_FAILED naming the list and row, nothing of the answer stored, cursor unchanged', async (_, i, fields, reason) => {
    const w = wallet();
    server.reset(txlistWith(i, fields));
    const err = await txaRejectionOf(sync(w));
    expect(err.code).toBe('SYNC_FAILED');
    expect(err.message).toMatch(new RegExp(`^wallet ${w}: the explorer sent a txlist row txa cannot take \\(row \\d+ of the answer`));
    expect(err.message).toMatch(reason);
    expect(err.extra).toMatchObject({ wallet_id: w, list: 'txlist' });
    const stored = count('SELECT count(*) FROM transactions WHERE wallet_id = ?', w);
    expect(err.extra!.new_transactions).toBe(stored);
    // Only whole pages before the bad row's answer were stored: no row of its block or after.
    const cursor = count("SELECT ifnull(max(block), 0) FROM sync_cursors WHERE wallet_id = ? AND list = 'txlist'", w);
    expect(cursor).toBeLessThanOrEqual(Number(lists.txlist![i]!.blockNumber));
    // A healthy explorer then gives the rows of one clean sync.
    const expected = await cleanRows(lists);
    await sync(w);
    expect(rowsOf(w)).toEqual(expected);
  });

  it('a field of megabytes, or nested past what JSON can print, is quoted short in the error', async () => {
    const w = wallet();
    server.reset(txlistWith(2, { to: `0x${'f'.repeat(1_000_000)}` }));
    const big = await txaRejectionOf(sync(w));
    expect(big.message).toMatch(/to "0xf{117}… is not an address/);
    expect(big.message.length).toBeLessThan(1000);
    // The row's hash names where it is, cut too.
    server.reset(txlistWith(2, { hash: `0x${'e'.repeat(500_000)}` }));
    const hash = await txaRejectionOf(sync(w));
    expect(hash.message).toMatch(/\(row \d+ of the answer, block 1001, 0xe{118}…\): hash "0xe{117}… is not a transaction hash/);
    expect(hash.message.length).toBeLessThan(1000);
    // Written by hand: JSON.stringify cannot print it either.
    const row = JSON.stringify(lists.txlist![0]).replace(/}$/, `,"input":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    server.reset(lists);
    server.faults.push({ text: `{"status":"1","message":"OK","result":[${row}]}` });
    expect((await txaRejectionOf(sync(w))).message).toMatch(/input a value nested too deep to show is not a plain value/);
  });

  it('a row that is not an object is SYNC_FAILED, not skipped', async () => {
    const w = wallet();
    server.faults.push({ envelope: { status: '1', message: 'OK', result: [lists.txlist![0], [[['deep']]], 'text'] } });
    const err = await txaRejectionOf(sync(w));
    expect(err.message).toMatch(/txlist: row 2 of the answer is not an object/);
    expect(count('SELECT count(*) FROM transactions')).toBe(0);
  });

  it('a row naming neither the wallet is left out aloud, on stderr', async () => {
    const w = wallet();
    server.reset(txlistWith(2, { from: addr('stranger'), to: addr('other') }));
    const notices: string[] = [];
    await sync(w, {}, notices);
    expect(notices).toContainEqual(
      expect.stringMatching(/^Etherscan txlist: 1 row left out, as neither its from nor its to is the wallet \(the first: block 1001, 0x/),
    );
  });
});

describe('a resumed sync equals one clean sync', () => {
  it('txlistinternal failing after txlist: the next sync still ignores the payouts of reverted txs', async () => {
    const rows = withRevertedPayout(lists);
    const expected = await cleanRows(rows);
    const w = wallet();
    server.lists = rows;
    // txlist answers, then every later call fails: the sync stops with txlist done.
    const txlistCalls = 4;
    server.always = { status: 503 };
    server.alwaysAfter = txlistCalls;
    expect((await txaRejectionOf(sync(w))).code).toBe('SYNC_FAILED');
    expect(cursors(w)).toEqual([{ list: 'txlist', block: 1013 }]);
    server.always = undefined;
    await sync(w);
    expect(rowsOf(w)).toEqual(expected);
  });

  it('a row repeated inside one answer is stored once (txlist and txlistinternal); identical token transfers stay two', async () => {
    const expected = await cleanRows(lists);
    const w = wallet();
    // Every answer of these lists carries its first row twice.
    server.mangle = (action, page) => (['txlist', 'txlistinternal'].includes(action) && page.length > 0 ? [page[0]!, ...page] : page);
    await sync(w);
    expect(rowsOf(w)).toEqual(expected);
  });
});

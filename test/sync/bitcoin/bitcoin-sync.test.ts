/**
 * `txa wallet sync` of Bitcoin wallets from a replay Esplora API (docs/sync.md "Bitcoin"): rows of
 * receives, sends with change and fee, consolidations and moves between two wallets of the
 * workspace; an address with a long history paged by the last seen txid; an xpub's receive and
 * change chains up to the gap limit; incremental syncs that add nothing and ask only for what is
 * new; and the server's failures.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine.js';
import { addWallet, removeWallet } from '../../../src/engine/wallets.js';
import { unmatchTransfer } from '../../../src/engine/transfers.js';
import { unmatchedTransfers } from '../../../src/engine/row-findings.js';
import { rowKindCounts } from '../../../src/store/checks.js';
import { derivedAddress, extendedKey } from '../../../src/core/bitcoin-keys.js';
import { WalletSync } from '../../../src/sync/wallet-sync.js';
import { syncSettings } from '../../../src/sync/settings.js';
import { tempEngine } from '../../helpers/engine.js';
import { txaRejectionOf } from '../../helpers/errors.js';
import { blockTime, esploraReplay, tx, type EsploraReplay, type EsploraTxJson } from '../../helpers/esplora-replay.js';

const W1 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const W2 = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const LONG = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3';
const F1 = 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr';
const F2 = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
const F3 = '1dice8EMZmqKvrGE4Qc9bUFf9PX3xaYDp';
const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

let engine: Engine;
let ws: string;
let server: EsploraReplay;

beforeEach(async () => {
  ({ engine, ws } = tempEngine('enterprise'));
  server = await esploraReplay([]);
});
afterEach(async () => {
  engine.close();
  await server.close();
});

const settings = (extra: Record<string, string> = {}) => syncSettings({ TXA_ESPLORA_URL: server.url, TXA_SYNC_RPS: '1000', ...extra });
const sync = (wallet: string, extra: Record<string, string> = {}, notices: string[] = []) =>
  new WalletSync(engine, ws, settings(extra), { onNotice: (m) => notices.push(m) }).sync(wallet);
const rowsOf = (wallet: string) =>
  engine.db
    .prepare(
      'SELECT tx_hash, transfer_key, from_address, to_address, amount, direction, type, ts, transfer_id FROM transactions WHERE wallet_id = ? ORDER BY ts, transfer_key',
    )
    .all(wallet) as {
    tx_hash: string;
    transfer_key: string;
    from_address: string;
    to_address: string;
    amount: string;
    direction: string;
    type: string;
    ts: number;
    transfer_id: string | null;
  }[];
const wallet = (address: string) => addWallet(engine, ws, { address, chain: 'bitcoin' }).id;
const BTC = (sats: number) => {
  const s = String(sats).padStart(9, '0');
  return `${s.slice(0, -8)}.${s.slice(-8)}`.replace(/\.?0+$/, '');
};

/** The wallet's balance by the chain's own rule (what its addresses were paid less what they spent), in satoshis. */
function chainBalance(txs: EsploraTxJson[], own: Set<string>): number {
  let n = 0;
  for (const t of txs.filter((x) => x.status.confirmed)) {
    for (const i of t.vin) if (i.prevout && own.has(i.prevout.scriptpubkey_address)) n -= i.prevout.value;
    for (const o of t.vout) if (o.scriptpubkey_address && own.has(o.scriptpubkey_address)) n += o.value;
  }
  return n;
}

/** The wallet's balance by its rows, in satoshis. */
const rowBalance = (id: string) => rowsOf(id).reduce((n, r) => n + (r.direction === 'inflow' ? 1 : -1) * Math.round(Number(r.amount) * 1e8), 0);

describe('bitcoin rows', () => {
  it('a receive, a send with change and fee, a move to another wallet of the workspace (own transfer)', async () => {
    const receive = tx(
      'receive',
      820_001,
      [[F1, 60_000_000]],
      [
        [W1, 50_000_000],
        [F1, 9_990_000],
      ],
    );
    const send = tx(
      'send',
      820_002,
      [[W1, 50_000_000]],
      [
        [F2, 20_000_000],
        [W1, 29_990_000],
      ],
    );
    const move = tx(
      'move',
      820_003,
      [[W1, 29_990_000]],
      [
        [W2, 10_000_000],
        [W1, 19_985_000],
      ],
    );
    server.txs.push(receive, send, move);
    const w1 = wallet(W1);
    const w2 = wallet(W2);
    const r1 = await sync(w1);
    const r2 = await sync(w2);
    expect(r1).toMatchObject({ chain: 'bitcoin', source: 'esplora', new_transactions: 5, requests: 1, last_block: 820_003 });
    expect(r2).toMatchObject({ new_transactions: 1, requests: 1 });
    const rows = rowsOf(w1);
    expect(rows.map((r) => [r.tx_hash, r.direction, r.type, r.amount, r.from_address, r.to_address, r.ts])).toEqual([
      [receive.txid, 'inflow', 'transfer', '0.5', F1, W1, blockTime(820_001)],
      // 0.5 spent: 0.2 to F2, 0.2999 back as change (no movement), 0.0001 fee.
      [send.txid, 'outflow', 'fee', '0.0001', W1, '', blockTime(820_002)],
      [send.txid, 'outflow', 'transfer', '0.2', W1, F2, blockTime(820_002)],
      [move.txid, 'outflow', 'fee', '0.00005', W1, '', blockTime(820_003)],
      [move.txid, 'outflow', 'transfer', '0.1', W1, W2, blockTime(820_003)],
    ]);
    expect(rows.map((r) => r.transfer_key)).toEqual(['t:BTC:inflow:0', 'fee:BTC:outflow:0', 't:BTC:outflow:0', 'fee:BTC:outflow:0', 't:BTC:outflow:0']);
    // Each row knows its block (status.block_height), not its position in it.
    expect(engine.db.prepare('SELECT DISTINCT tx_hash, block, block_position FROM transactions WHERE wallet_id = ? ORDER BY block').all(w1)).toEqual([
      { tx_hash: receive.txid, block: 820_001, block_position: null },
      { tx_hash: send.txid, block: 820_002, block_position: null },
      { tx_hash: move.txid, block: 820_003, block_position: null },
    ]);
    const [incoming] = rowsOf(w2);
    expect(incoming).toMatchObject({ tx_hash: move.txid, direction: 'inflow', amount: '0.1', from_address: W1, to_address: W2 });
    // The matcher by tx hash pairs the two legs into one own transfer.
    expect(incoming!.transfer_id).not.toBeNull();
    expect(rows.at(-1)!.transfer_id).toBe(incoming!.transfer_id);
    expect(rowBalance(w1)).toBe(chainBalance(server.txs, new Set([W1])));
  });

  it('an xpub: receive and change chains to 20 unused in a row, a consolidation as its fee only, a tx touching several addresses once', async () => {
    const key = extendedKey(ZPUB);
    const [r0, r1, r3, c0] = [derivedAddress(key, 0, 0), derivedAddress(key, 0, 1), derivedAddress(key, 0, 3), derivedAddress(key, 1, 0)];
    expect([r0, c0]).toEqual(['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el']);
    const fund = tx('x-fund', 830_001, [[F1, 100_000_000]], [[r0, 100_000_000 - 1000]]);
    const spend = tx(
      'x-spend',
      830_002,
      [[r0, 99_999_000]],
      [
        [F2, 40_000_000],
        [c0, 59_998_000],
      ],
    );
    const later = tx('x-later', 830_003, [[F3, 20_001_000]], [[r1, 20_000_000]]);
    // r2 is never used; r3 is, within the gap.
    const gap = tx('x-gap', 830_004, [[F3, 5_001_000]], [[r3, 5_000_000]]);
    const consolidate = tx(
      'x-consolidate',
      830_005,
      [
        [c0, 59_998_000],
        [r1, 20_000_000],
        [r3, 5_000_000],
      ],
      [[r0, 84_996_000]],
    );
    server.txs.push(fund, spend, later, gap, consolidate);
    const id = addWallet(engine, ws, { chain: 'bitcoin', xpub: ZPUB }).id;
    const result = await sync(id);
    const rows = rowsOf(id);
    expect(rows.map((r) => [r.tx_hash, r.direction, r.type, r.amount])).toEqual([
      [fund.txid, 'inflow', 'transfer', '0.99999'],
      [spend.txid, 'outflow', 'fee', '0.00001'],
      [spend.txid, 'outflow', 'transfer', '0.4'],
      [later.txid, 'inflow', 'transfer', '0.2'],
      [gap.txid, 'inflow', 'transfer', '0.05'],
      // Three own inputs into one own output: no movement, its fee only; once, though it touches four addresses.
      [consolidate.txid, 'outflow', 'fee', '0.00002'],
    ]);
    expect(rows[2]).toMatchObject({ from_address: r0, to_address: F2 });
    // Stats: receive 0, 1, 3 used and 2, 4…23 unused (24 calls), change 0 used and 1…20 unused (21);
    // then the txs of each of the four used addresses, one page each.
    const stats = server.calls.filter((c) => !c.includes('/txs'));
    expect(stats).toHaveLength(24 + 21);
    expect(server.calls.filter((c) => c.includes('/txs')).sort()).toEqual([r0, r1, r3, c0].map((a) => `/address/${a}/txs`).sort());
    expect(result).toMatchObject({ new_transactions: 6, requests: 49 });
    const own = new Set([0, 1, 2, 3].map((i) => derivedAddress(key, 0, i)).concat([c0]));
    expect(rowBalance(id)).toBe(chainBalance(server.txs, own));

    // Again: the counts have not moved, so no address's transactions are asked for.
    server.calls.length = 0;
    expect(await sync(id)).toMatchObject({ new_transactions: 0, requests: 45 });
    expect(server.calls.every((c) => !c.includes('/txs'))).toBe(true);
    // A new payment to change 0: only that address's first page.
    const tip = tx('x-tip', 830_006, [[F1, 1_000_500]], [[c0, 1_000_000]]);
    server.txs.push(tip);
    server.calls.length = 0;
    expect(await sync(id)).toMatchObject({ new_transactions: 1, requests: 46 });
    expect(server.calls.filter((c) => c.includes('/txs'))).toEqual([`/address/${c0}/txs`]);
  });

  it("an xpub's addresses are derived once: a later sync reads those its first stored, a dry run stores none, and they go with the wallet", async () => {
    const key = extendedKey(ZPUB);
    const [r0, r5] = [derivedAddress(key, 0, 0), derivedAddress(key, 0, 5)];
    server.txs.push(tx('d-fund', 870_001, [[F1, 1_001_000]], [[r0, 1_000_000]]), tx('d-more', 870_002, [[F1, 2_001_000]], [[r5, 2_000_000]]));
    const id = addWallet(engine, ws, { chain: 'bitcoin', xpub: ZPUB }).id;
    const stored = () =>
      engine.db.prepare('SELECT chain, idx, address FROM xpub_addresses WHERE wallet_id = ? ORDER BY chain, idx').raw(true).all(id) as [
        number,
        number,
        string,
      ][];
    await new WalletSync(engine, ws, settings(), { dryRun: true }).sync(id);
    expect(stored()).toEqual([]);
    server.calls.length = 0;
    await sync(id);
    // Receive 0…25 (5 used, then 20 unused: batches of 20 and 6) and change 0…19: each stored as BIP 32 derives it.
    const rows = stored();
    expect(rows.map(([c]) => c)).toEqual([...Array(26).fill(0), ...Array(20).fill(1)]);
    for (const [chain, idx, address] of rows) expect(address).toBe(derivedAddress(key, chain as 0 | 1, idx));
    expect(server.calls.filter((c) => !c.includes('/txs'))).toHaveLength(46);

    // The next sync asks about the stored addresses, not freshly derived ones: one put in place of receive 7 is asked about.
    engine.db.prepare('UPDATE xpub_addresses SET address = ? WHERE wallet_id = ? AND chain = 0 AND idx = 7').run(F2, id);
    server.calls.length = 0;
    expect(await sync(id)).toMatchObject({ new_transactions: 0, requests: 46 });
    expect(server.calls).toContain(`/address/${F2}`);
    expect(server.calls).not.toContain(`/address/${derivedAddress(key, 0, 7)}`);
    // Past the stored ones it derives again: a payment to receive 25 moves the gap: 26…45 are derived and stored.
    engine.db.prepare('UPDATE xpub_addresses SET address = ? WHERE wallet_id = ? AND chain = 0 AND idx = 7').run(derivedAddress(key, 0, 7), id);
    server.txs.push(tx('d-far', 870_003, [[F1, 3_001_000]], [[derivedAddress(key, 0, 25), 3_000_000]]));
    expect(await sync(id)).toMatchObject({ new_transactions: 1 });
    const receive = stored().filter(([c]) => c === 0);
    expect(receive).toHaveLength(46);
    for (const [, idx, address] of receive) expect(address).toBe(derivedAddress(key, 0, idx));

    removeWallet(engine, ws, id);
    expect(stored()).toEqual([]);
  });

  it("an xpub's derived addresses and a base58 address as written name own wallets, for the matcher and the unmatched-transfer hint", async () => {
    const r0 = derivedAddress(extendedKey(ZPUB), 0, 0);
    server.txs.push(tx('h-fund', 860_001, [[F1, 50_001_000]], [[r0, 50_000_000]]));
    const x = addWallet(engine, ws, { chain: 'bitcoin', xpub: ZPUB }).id;
    await sync(x);
    // W2 (P2SH, base58: case matters) pays the xpub's r0, which its sync has walked; W2 syncs first.
    const pay = tx('h-pay', 860_002, [[W2, 10_001_000]], [[r0, 10_000_000]]);
    server.txs.push(pay);
    const w2 = wallet(W2);
    await sync(w2);
    const [sent] = rowsOf(w2).filter((r) => r.type === 'transfer');
    // A one-leg transfer to the xpub wallet at once, as to any own address; the xpub's sync brings the other leg.
    expect(sent).toMatchObject({ to_address: r0 });
    expect(sent!.transfer_id).not.toBeNull();
    await sync(x);
    const received = rowsOf(x).find((r) => r.tx_hash === pay.txid)!;
    expect(received.transfer_id).toBe(sent!.transfer_id);
    // Unmatched by hand: both legs are own transfers not matched, each naming the other wallet.
    unmatchTransfer(engine, ws, sent!.transfer_id!);
    const hint = unmatchedTransfers(engine.db, ws, {});
    expect(hint.count).toBe(2);
    // One transaction, one second: in id order, which is arbitrary; sorted by direction here.
    expect(hint.examples.map((e) => [e.direction, e.wallet_id, e.counterparty_wallet_id]).sort()).toEqual([
      ['inflow', x, w2],
      ['outflow', w2, x],
    ]);
    expect(rowKindCounts(engine.db, ws, ['unmatched_transfer'])).toEqual([2]);
  });

  it('a coinjoin: the wallet pays the share of the fee its inputs brought, rounded down', async () => {
    const join = tx(
      'join',
      840_000,
      [
        [W1, 30_000_001],
        [F1, 10_000_000],
      ],
      [
        [W1, 29_990_000],
        [F2, 9_990_000],
      ],
    );
    server.txs.push(join);
    const id = wallet(W1);
    await sync(id);
    // fee 20,001 sats; the wallet brought 30,000,001 of 40,000,001: 20,001 × 30,000,001 ÷ 40,000,001 = 15,000.49… → 15,000.
    // Its movement: 29,990,000 − 30,000,001 + 15,000 = +4,999 sats: the other party paid part of the
    // wallet's share, an inflow from the largest foreign input. Net: −10,001 = 4,999 − 15,000, the chain's.
    expect(rowsOf(id).map((r) => [r.type, r.direction, r.amount, r.from_address])).toEqual([
      ['fee', 'outflow', BTC(15_000), W1],
      ['transfer', 'inflow', BTC(4_999), F1],
    ]);
    expect(rowBalance(id)).toBe(-10_001);
  });
});

describe('an address with a long history, paged by the last seen txid', () => {
  /** 60 confirmed transactions (receives and sends with change back to the address) and 2 in the mempool. */
  function history(): EsploraTxJson[] {
    const txs: EsploraTxJson[] = [];
    let held = 0;
    for (let i = 0; i < 60; i++) {
      const height = 850_000 + i;
      if (i % 3 === 2) {
        const pay = 1_000_000 + i;
        txs.push(
          tx(
            `long:${i}`,
            height,
            [[LONG, held]],
            [
              [F2, pay],
              [LONG, held - pay - 500],
            ],
          ),
        );
        held -= pay + 500;
      } else {
        txs.push(tx(`long:${i}`, height, [[F1, 5_000_000 + i + 300]], [[LONG, 5_000_000 + i]]));
        held += 5_000_000 + i;
      }
    }
    txs.push(tx('long:mempool:1', null, [[F3, 700_000]], [[LONG, 699_000]]), tx('long:mempool:2', null, [[F3, 800_000]], [[LONG, 799_000]]));
    return txs;
  }

  it('walks 25 + 25 + 10 in three calls, leaves the mempool out, and a resync asks only what is new', async () => {
    server.txs.push(...history());
    const id = wallet(LONG);
    const confirmed = server.txs.filter((t) => t.status.confirmed).reverse();
    const first = await sync(id);
    expect(server.calls).toEqual([
      `/address/${LONG}/txs`,
      `/address/${LONG}/txs/chain/${confirmed[24]!.txid}`,
      `/address/${LONG}/txs/chain/${confirmed[49]!.txid}`,
    ]);
    // 40 receives (a row each), 20 sends (a transfer and a fee row each).
    expect(first).toMatchObject({ new_transactions: 40 + 20 * 2, requests: 3, last_block: 850_059 });
    expect(first.requests / 60).toBeCloseTo(0.05);
    expect(rowBalance(id)).toBe(chainBalance(server.txs, new Set([LONG])));

    server.calls.length = 0;
    expect(await sync(id)).toMatchObject({ new_transactions: 0, duplicates: 0, requests: 1 });
    expect(server.calls).toEqual([`/address/${LONG}/txs`]);

    // The mempool ones confirm, with one more: three new rows from one call.
    for (const [n, t] of server.txs.filter((t) => !t.status.confirmed).entries()) {
      t.status = { confirmed: true, block_height: 850_060 + n, block_hash: 'ab'.repeat(32), block_time: blockTime(850_060 + n) };
    }
    server.txs.push(tx('long:new', 850_062, [[F1, 10_000]], [[LONG, 9_000]]));
    server.calls.length = 0;
    expect(await sync(id)).toMatchObject({ new_transactions: 3, requests: 1 });
    expect(rowBalance(id)).toBe(chainBalance(server.txs, new Set([LONG])));
  });

  it('30 new on top of 60 known: two calls, the second stopping at the first known txid; no known page is read again', async () => {
    server.txs.push(...history().filter((t) => t.status.confirmed));
    const id = wallet(LONG);
    expect(await sync(id)).toMatchObject({ new_transactions: 80, requests: 3 });
    const fresh = Array.from({ length: 30 }, (_, i) => tx(`long:more:${i}`, 850_100 + i, [[F1, 70_000 + i]], [[LONG, 60_000 + i]]));
    server.txs.push(...fresh);
    server.calls.length = 0;
    // Newest first: the first page is the 25 newest new ones, the next the 5 others, then known ones.
    expect(await sync(id)).toMatchObject({ new_transactions: 30, duplicates: 0, requests: 2, last_block: 850_129 });
    expect(server.calls).toEqual([`/address/${LONG}/txs`, `/address/${LONG}/txs/chain/${fresh[5]!.txid}`]);
    expect(rowBalance(id)).toBe(chainBalance(server.txs, new Set([LONG])));
  });
});

describe('a sync stopped half-way', () => {
  it('an xpub whose server goes down after its first transactions page stores nothing of the walk; the next sync stores it all', async () => {
    const key = extendedKey(ZPUB);
    const [r0, c0] = [derivedAddress(key, 0, 0), derivedAddress(key, 1, 0)];
    server.txs.push(
      tx('h-fund', 830_001, [[F1, 100_000_000]], [[r0, 99_999_000]]),
      tx(
        'h-spend',
        830_002,
        [[r0, 99_999_000]],
        [
          [F2, 40_000_000],
          [c0, 59_998_000],
        ],
      ),
    );
    const id = addWallet(engine, ws, { chain: 'bitcoin', xpub: ZPUB }).id;
    // 21 + 21 stats calls, then r0's page; c0's page finds the server down.
    server.downFrom = 21 + 21 + 2;
    const e = await txaRejectionOf(sync(id));
    expect(e.code).toBe('SYNC_FAILED');
    expect(e.message).toMatch(/0 new transactions kept/);
    expect(rowsOf(id)).toEqual([]);
    expect(engine.db.prepare('SELECT count(*) FROM sync_cursors WHERE wallet_id = ?').pluck().get(id)).toBe(0);
    server.downFrom = Number.POSITIVE_INFINITY;
    expect(await sync(id)).toMatchObject({ new_transactions: 3 });
    expect(rowsOf(id).map((r) => [r.type, r.direction, r.amount])).toEqual([
      ['transfer', 'inflow', '0.99999'],
      ['fee', 'outflow', '0.00001'],
      ['transfer', 'outflow', '0.4'],
    ]);
  });
});

describe('an Esplora server that fails', () => {
  beforeEach(() => {
    server.txs.push(tx('one', 820_001, [[F1, 60_000_000]], [[W1, 50_000_000]]));
  });

  it('429 (with Retry-After) and 5xx are tried again; the rows arrive', async () => {
    server.faults.push({ status: 429, headers: { 'retry-after': '0' } }, { status: 502 });
    const notices: string[] = [];
    const id = wallet(W1);
    expect(await sync(id, {}, notices)).toMatchObject({ new_transactions: 1, requests: 3 });
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/HTTP 429 \(rate limit\); trying again/);
  });

  it('5xx on every try: SYNC_FAILED after 6 tries, nothing written', async () => {
    server.faults.push(...Array.from({ length: 6 }, () => ({ status: 503 })));
    const id = wallet(W1);
    const e = await txaRejectionOf(sync(id));
    expect(e.code).toBe('SYNC_FAILED');
    expect(e.message).toMatch(/HTTP 503 \(after 6 tries\)/);
    expect(rowsOf(id)).toEqual([]);
  });

  it('an HTML page: SYNC_FAILED at once, naming it', async () => {
    server.faults.push({ html: true });
    const id = wallet(W1);
    const e = await txaRejectionOf(sync(id));
    expect(e.code).toBe('SYNC_FAILED');
    expect(e.message).toMatch(/answered HTML, not JSON \(<!DOCTYPE html>.*TXA_ESPLORA_URL/);
    expect(server.calls).toHaveLength(1);
  });

  it('a server that never answers: each call ends at TXA_SYNC_TIMEOUT, and after 6 tries SYNC_FAILED', async () => {
    server.faults.push(...Array.from({ length: 6 }, () => ({ stall: true as const })));
    const id = wallet(W1);
    const e = await txaRejectionOf(sync(id, { TXA_SYNC_TIMEOUT: '0.2' }));
    expect(e.code).toBe('SYNC_FAILED');
    expect(e.message).toMatch(/no complete answer within 0.2 s \(after 6 tries\)/);
  });

  it('an answer of another shape is SYNC_FAILED naming the field', async () => {
    server.faults.push({ status: 200, body: JSON.stringify([{ txid: 'nope' }]) } as never);
    const id = wallet(W1);
    const e = await txaRejectionOf(sync(id));
    expect(e.code).toBe('SYNC_FAILED');
  });
});

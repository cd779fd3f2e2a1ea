/**
 * Own transfers on a real ledger file: matched by the import pipeline (internal pairs, one-leg
 * transfers completed later), bridges proposed and confirmed, unmatching, and every bad match
 * refused with its code and field and nothing changed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { txaErrorOf } from '../helpers/errors.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet, removeWallet } from '../../src/engine/wallets.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { importRecords } from '../../src/engine/imports.js';
import { getTransaction, listTransactions } from '../../src/engine/transactions.js';
import { autoMatch, listTransfers, matchTransfer, unmatchTransfer } from '../../src/engine/transfers.js';
import { transactionHistory } from '../../src/engine/history.js';
import { transactionId } from '../../src/core/ids.js';
import type { ImportRecord } from '../../src/importers/types.js';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const C = '0x' + 'c'.repeat(40);
const STRANGER = '0x' + 'd'.repeat(40);
const T0 = Date.UTC(2025, 2, 1, 12) / 1000;
const ETH = { symbol: 'ETH', address: null, decimals: 18 };
const USDC = { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 };

let engine: Engine;
let ws: string;
let wallets: Record<'a' | 'b' | 'c', string>;

beforeEach(() => {
  ({ engine, ws } = tempEngine('pro'));
  wallets = engine.write(() => ({
    a: insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id,
    b: insertNewWallet(engine, ws, { address: B, chain: 'ethereum', label: 'B' }).id,
    c: insertNewWallet(engine, ws, { address: C, chain: 'arbitrum', label: 'C (Arbitrum)' }).id,
  }));
});
afterEach(() => engine.close());

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** One row in a wallet, as an importer gives it; the id follows from the pipeline's rules. */
function row(wallet: 'a' | 'b' | 'c', n: number, over: Partial<ImportRecord> = {}): ImportRecord & { id: string } {
  const direction = over.direction ?? 'outflow';
  const token = over.token ?? ETH;
  const r: ImportRecord = {
    line: n,
    tx_hash: hash(n),
    from_address: STRANGER,
    to_address: STRANGER,
    token,
    amount: '1.5',
    fiat_value: '4500',
    direction,
    type: 'transfer',
    timestamp: T0 + n * 60,
    notes: null,
    ...over,
  };
  const id = transactionId(wallets[wallet], r.tx_hash, `${r.type === 'fee' ? 'fee' : 't'}:${token.address ?? token.symbol}:${direction}:0`);
  return { ...r, id };
}

function load(wallet: 'a' | 'b' | 'c', records: ImportRecord[]) {
  return importRecords(engine, ws, records, { walletId: wallets[wallet], format: 'json' });
}

const tx = (id: string) => getTransaction(engine, ws, id);
const counts = () => ({
  transfers: engine.db.prepare('SELECT count(*) FROM transfers').pluck().get(),
  legs: engine.db.prepare('SELECT count(*) FROM transactions WHERE transfer_id IS NOT NULL').pluck().get(),
  events: engine.db.prepare('SELECT count(*) FROM events').pluck().get(),
});

describe('automatic matching after an import', () => {
  it('pairs an outflow and an inflow of two own wallets with the same hash, token and amount', () => {
    const out = row('a', 1, { from_address: A, to_address: B });
    const fee = row('a', 1, { from_address: A, to_address: '', type: 'fee', amount: '0.001' });
    const into = row('b', 1, { from_address: A, to_address: B, direction: 'inflow' });
    load('a', [out, fee]);
    const summary = load('b', [into]);
    expect(summary.transfers_matched).toBe(2);
    const [o, i] = [tx(out.id), tx(into.id)];
    expect(o.transfer).toMatchObject({ counterpart_id: into.id, kind: 'internal', matched_by: 'auto' });
    expect(i.transfer).toEqual({ ...o.transfer, counterpart_id: out.id });
    expect(tx(fee.id).transfer).toBeNull();
    expect(
      listTransactions(engine, ws, { internal: 'true' })
        .data.map((t) => t.id)
        .sort(),
    ).toEqual([out.id, into.id].sort());
  });

  it('makes a one-leg transfer of a row whose counterparty is another own wallet, and completes it when the other leg comes', () => {
    const out = row('a', 2, { from_address: A, to_address: B });
    load('a', [out]);
    const first = tx(out.id).transfer!;
    expect(first).toMatchObject({ counterpart_id: null, kind: 'internal', matched_by: 'auto' });
    const into = row('b', 2, { from_address: A, to_address: B, direction: 'inflow' });
    load('b', [into]);
    expect(tx(out.id).transfer).toEqual({ ...first, counterpart_id: into.id });
    expect(tx(into.id).transfer).toEqual({ ...first, counterpart_id: out.id });
    // The event says what changed: the counterpart, from none to the new leg.
    const last = transactionHistory(engine, ws, out.id).at(-1)!;
    expect(last).toMatchObject({
      event: 'transaction.updated',
      actor: 'cli',
      changes: { transfer: { old: first, new: { ...first, counterpart_id: into.id } } },
    });
  });

  it('leaves rows of strangers, different amounts and fees alone', () => {
    const out = row('a', 3, { from_address: A, to_address: STRANGER });
    const into = row('b', 3, { from_address: STRANGER, to_address: B, direction: 'inflow', amount: '1.4' });
    load('a', [out, row('a', 3, { type: 'fee', from_address: A, to_address: B, amount: '0.01' })]);
    load('b', [into]);
    expect(counts().transfers).toBe(0);
  });

  it('matches the whole ledger the same way (txa transfers match --auto) and never a pair the user unmatched', () => {
    const out = row('a', 4, { from_address: A, to_address: B });
    const into = row('b', 4, { from_address: A, to_address: B, direction: 'inflow' });
    load('a', [out]);
    load('b', [into]);
    unmatchTransfer(engine, ws, tx(out.id).transfer!.id);
    expect(engine.write(() => autoMatch(engine, ws))).toBe(0);
    load('b', [into]);
    expect([tx(out.id).transfer, tx(into.id).transfer]).toEqual([null, null]);
  });

  it('a ledger filled before matching existed is matched by one whole-ledger pass, as an import would have', () => {
    const out = row('a', 6, { from_address: A, to_address: B });
    const into = row('b', 6, { from_address: A, to_address: B, direction: 'inflow' });
    const single = row('a', 7, { from_address: A, to_address: B, amount: '3' });
    load('a', [out, single]);
    load('b', [into]);
    const matched = [out, into, single].map((r) => tx(r.id).transfer);
    engine.write(() => {
      engine.db.exec('UPDATE transactions SET transfer_id = NULL; DELETE FROM transfers');
      expect(autoMatch(engine, ws)).toBe(3);
    });
    const again = [out, into, single].map((r) => tx(r.id).transfer);
    expect(again.map((t) => t && { ...t, id: 'x' })).toEqual(matched.map((t) => t && { ...t, id: 'x' }));
    expect(again[2]!.counterpart_id).toBeNull();
  });

  it('ends a transfer whose leg goes with its wallet', () => {
    const out = row('a', 5, { from_address: A, to_address: B });
    load('a', [out]);
    load('b', [row('b', 5, { from_address: A, to_address: B, direction: 'inflow' })]);
    removeWallet(engine, ws, wallets.b);
    expect(tx(out.id).transfer).toBeNull();
    expect(counts().transfers).toBe(0);
  });
});

describe('bridges', () => {
  const bridgeOut = () => row('a', 10, { from_address: A, to_address: STRANGER, amount: '2', type: 'bridge' });
  const bridgeIn = (minutes: number, amount: string) =>
    row('c', 11, { from_address: STRANGER, to_address: C, direction: 'inflow', amount, type: 'bridge', timestamp: T0 + 10 * 60 + minutes * 60 });

  it('are proposed, never matched silently, and confirmed by the user', () => {
    load('a', [bridgeOut()]);
    load('c', [bridgeIn(12, '1.99')]);
    expect(tx(bridgeOut().id).transfer).toBeNull();
    const proposed = listTransfers(engine, ws, { status: 'candidate' });
    expect(proposed.pagination.total).toBe(1);
    expect(proposed.data[0]).toMatchObject({ id: null, status: 'candidate', kind: 'bridge', matched_by: null });
    expect(proposed.data[0]!.legs.map((l) => l.id)).toEqual([bridgeOut().id, bridgeIn(12, '1.99').id]);
    const confirmed = matchTransfer(engine, ws, { transaction_id: bridgeIn(12, '1.99').id, counterpart_id: bridgeOut().id });
    expect(confirmed).toMatchObject({ kind: 'bridge', matched_by: 'user', status: 'matched' });
    expect(confirmed.legs.map((l) => l.transfer?.id)).toEqual([confirmed.id, confirmed.id]);
    expect(listTransfers(engine, ws, { status: 'candidate' }).data).toEqual([]);
    expect(listTransfers(engine, ws, {}).data.map((t) => t.id)).toEqual([confirmed.id]);
  });

  it('are not proposed beyond the hour or the 1 % tolerance, nor when more arrives than left', () => {
    load('a', [bridgeOut()]);
    load('c', [bridgeIn(61, '2')]);
    expect(listTransfers(engine, ws, { status: 'candidate' }).pagination.total).toBe(0);
    engine.db.prepare('DELETE FROM transactions WHERE wallet_id = ?').run(wallets.c);
    load('c', [bridgeIn(5, '1.979')]);
    expect(listTransfers(engine, ws, { status: 'candidate' }).pagination.total).toBe(0);
    engine.db.prepare('DELETE FROM transactions WHERE wallet_id = ?').run(wallets.c);
    load('c', [bridgeIn(5, '2.01')]);
    expect(listTransfers(engine, ws, { status: 'candidate' }).pagination.total).toBe(0);
  });
});

describe('matching by hand: bad input changes nothing', () => {
  let out: string;
  let out2: string;
  let into: string;
  let usdcIn: string;
  beforeEach(() => {
    const rows = [
      row('a', 20),
      row('a', 21),
      row('b', 22, { direction: 'inflow', amount: '1' }),
      row('b', 23, { direction: 'inflow', token: USDC, amount: '1' }),
    ];
    load('a', rows.slice(0, 2));
    load('b', rows.slice(2));
    [out, out2, into, usdcIn] = rows.map((r) => r.id) as [string, string, string, string];
  });

  const refused = (body: unknown) => {
    const before = counts();
    const err = txaErrorOf(() => matchTransfer(engine, ws, body));
    expect(counts()).toEqual(before);
    return err;
  };

  it('two outflows, two inflows, different tokens, more in than out, one row twice: INVALID_TRANSFER (counterpart_id)', () => {
    for (const [a, b] of [
      [out, out2],
      [into, usdcIn],
      [out, usdcIn],
      [out, out],
    ]) {
      const err = refused({ transaction_id: a, counterpart_id: b });
      expect([err.code, err.field, err.status]).toEqual(['INVALID_TRANSFER', 'counterpart_id', 400]);
    }
    engine.db.prepare("UPDATE transactions SET amount = '5' WHERE id = ?").run(into);
    expect(refused({ transaction_id: out, counterpart_id: into }).message).toMatch(/more than the outflow/);
  });

  it('a row of another workspace: INVALID_TRANSFER; an unknown leg: TRANSACTION_NOT_FOUND; a missing field: MISSING_REQUIRED_FIELD', () => {
    const other = createWorkspace(engine, { name: 'Other' });
    const foreignWallet = engine.write(() => insertNewWallet(engine, other.id, { address: C, chain: 'ethereum', label: 'X' }).id);
    const foreign = importRecords(engine, other.id, [row('a', 30, { direction: 'inflow', amount: '1' })], { walletId: foreignWallet, format: 'json' });
    expect(foreign.imported).toBe(1);
    const foreignId = engine.db.prepare('SELECT id FROM transactions WHERE workspace_id = ?').pluck().get(other.id) as string;
    expect(refused({ transaction_id: out, counterpart_id: foreignId })).toMatchObject({ code: 'INVALID_TRANSFER', field: 'counterpart_id' });
    expect(refused({ transaction_id: 'tx_nope', counterpart_id: into })).toMatchObject({ code: 'TRANSACTION_NOT_FOUND', field: 'transaction_id' });
    expect(refused({ transaction_id: out })).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', field: 'counterpart_id' });
  });

  it('a row already matched: TRANSFER_EXISTS (409) naming it', () => {
    const t = matchTransfer(engine, ws, { transaction_id: out, counterpart_id: into });
    expect(t.kind).toBe('internal');
    const err = refused({ transaction_id: out2, counterpart_id: into });
    expect([err.code, err.field, err.status]).toEqual(['TRANSFER_EXISTS', 'counterpart_id', 409]);
  });

  it('unmatching frees both legs with an event each; an unknown transfer is TRANSFER_NOT_FOUND and changes nothing', () => {
    const t = matchTransfer(engine, ws, { transaction_id: out, counterpart_id: into });
    const before = counts();
    expect(txaErrorOf(() => unmatchTransfer(engine, ws, 'trf_00000000000000000000'))).toMatchObject({ code: 'TRANSFER_NOT_FOUND', status: 404 });
    expect(counts()).toEqual(before);
    expect(unmatchTransfer(engine, ws, t.id!)).toEqual({ id: t.id, deleted: true });
    expect(counts()).toEqual({ transfers: 0, legs: 0, events: before.events + 2 });
    for (const id of [out, into]) {
      expect(transactionHistory(engine, ws, id).at(-1)).toMatchObject({
        event: 'transaction.updated',
        changes: { transfer: { old: { id: t.id }, new: null } },
      });
    }
  });
});

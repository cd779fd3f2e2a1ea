import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet, listWallets, removeWallet } from '../../src/engine/wallets.js';
import { createTag, deleteTag } from '../../src/engine/tags.js';
import { getTransaction, listTransactions } from '../../src/engine/transactions.js';
import { attachFile, tagTransaction, untagTransaction, updateTransaction } from '../../src/engine/transaction-edits.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import { amountKey } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { txaErrorOf } from '../helpers/errors.js';

let engine: Engine;
let ws: string;
let walletId: string;
const T0 = Date.UTC(2025, 5, 1) / 1000;

function addTx(
  i: number,
  over: Partial<{
    amount: string;
    direction: 'inflow' | 'outflow';
    cents: number | null;
    symbol: string;
    address: string | null;
    decimals: number;
    ts: number;
  }> = {},
) {
  const hash = `0x${(i + 1).toString(16).padStart(64, 'a')}`;
  const amount = over.amount ?? '1.5';
  const row = {
    id: transactionId(walletId, hash, 't'),
    workspace_id: ws,
    wallet_id: walletId,
    chain: 'ethereum',
    tx_hash: hash,
    transfer_key: 't',
    from_address: '0x1111111111111111111111111111111111111111',
    to_address: '0x2222222222222222222222222222222222222222',
    token_symbol: over.symbol ?? 'ETH',
    token_address: over.address === undefined ? null : over.address,
    token_decimals: over.decimals ?? 18,
    amount,
    amount_key: amountKey(amount),
    fiat_cents: over.cents === undefined ? 300_000 : over.cents,
    direction: over.direction ?? 'inflow',
    type: 'transfer',
    ts: over.ts ?? T0 + i * 3600,
    notes: null,
  };
  engine.write(() => insertTransactions(engine.db, [row], T0));
  return row.id;
}

const eventTypes = () => (engine.db.prepare('SELECT type FROM events WHERE workspace_id = ? ORDER BY seq').all(ws) as { type: string }[]).map((r) => r.type);

beforeEach(() => {
  ({ engine, ws } = tempEngine('pro'));
  walletId = engine.write(() => insertNewWallet(engine, ws, { address: '0x2222222222222222222222222222222222222222', chain: 'ethereum', label: 'Main' }).id);
});
afterEach(() => engine.close());

describe('transactions', () => {
  it('shows the API shape', () => {
    const id = addTx(0, { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6, amount: '12.5' });
    expect(getTransaction(engine, ws, id)).toEqual({
      id,
      tx_hash: `0x${'1'.padStart(64, 'a')}`,
      wallet_id: walletId,
      wallet_label: 'Main',
      chain: 'ethereum',
      from_address: '0x1111111111111111111111111111111111111111',
      to_address: '0x2222222222222222222222222222222222222222',
      token: { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
      amount: '12.5',
      fiat_value: 3000,
      direction: 'inflow',
      type: 'transfer',
      timestamp: '2025-06-01T00:00:00Z',
      tags: [],
      notes: null,
      attachments: [],
      explorer_url: `https://etherscan.io/tx/0x${'1'.padStart(64, 'a')}`,
      transfer: null,
      fiat_value_source: 'import',
      spam: false,
    });
  });

  it('unknown ids and foreign workspaces are TRANSACTION_NOT_FOUND; an unknown wallet filter is WALLET_NOT_FOUND', () => {
    const id = addTx(0);
    expect(txaErrorOf(() => getTransaction(engine, ws, 'tx_nope')).code).toBe('TRANSACTION_NOT_FOUND');
    const other = createWorkspace(engine, { name: 'Other' });
    expect(txaErrorOf(() => getTransaction(engine, other.id, id)).code).toBe('TRANSACTION_NOT_FOUND');
    expect(txaErrorOf(() => listTransactions(engine, ws, { wallet_id: 'wal_nope' }))).toMatchObject({ code: 'WALLET_NOT_FOUND', field: 'wallet_id' });
    expect(listTransactions(engine, ws, { tag_ids: 'tag_unknown' }).pagination.total).toBe(0);
  });

  it('tags and untags, with transaction.tagged and usage_count', () => {
    const id = addTx(0);
    const a = createTag(engine, ws, { name: 'A', type: 'income' });
    const b = createTag(engine, ws, { name: 'B', type: 'expense' });
    const tx = tagTransaction(engine, ws, id, { tag_ids: [b.id, a.id] });
    expect(tx.tags.map((t) => t.name)).toEqual(['A', 'B']);
    tagTransaction(engine, ws, id, { tag_ids: [a.id] }); // already there: no event
    expect(untagTransaction(engine, ws, id, a.id).tags.map((t) => t.id)).toEqual([b.id]);
    expect(eventTypes().filter((t) => t.startsWith('transaction'))).toEqual(['transaction.tagged', 'transaction.updated']);
    expect(txaErrorOf(() => tagTransaction(engine, ws, id, { tag_ids: ['tag_nope'] }))).toMatchObject({ code: 'TAG_NOT_FOUND', field: 'tag_ids' });
    expect(txaErrorOf(() => tagTransaction(engine, ws, id, { tag_ids: [] }))).toMatchObject({ code: 'INVALID_FIELD', field: 'tag_ids' });
    expect(txaErrorOf(() => tagTransaction(engine, ws, id, {}))).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', field: 'tag_ids' });
  });

  it('deleting a tag removes it from its transactions', () => {
    const id = addTx(0);
    const a = createTag(engine, ws, { name: 'A', type: 'income' });
    tagTransaction(engine, ws, id, { tag_ids: [a.id] });
    deleteTag(engine, ws, a.id);
    expect(getTransaction(engine, ws, id).tags).toEqual([]);
    expect(listTransactions(engine, ws, { has_tags: 'true' }).pagination.total).toBe(0);
  });

  it('updates notes and replaces the tag set in one call', () => {
    const id = addTx(0);
    const a = createTag(engine, ws, { name: 'A', type: 'income' });
    const b = createTag(engine, ws, { name: 'B', type: 'income' });
    tagTransaction(engine, ws, id, { tag_ids: [a.id] });
    const tx = updateTransaction(engine, ws, id, { notes: 'Invoice 7 — €120', tag_ids: [b.id] });
    expect(tx.notes).toBe('Invoice 7 — €120');
    expect(tx.tags.map((t) => t.id)).toEqual([b.id]);
    expect(updateTransaction(engine, ws, id, { notes: null }).notes).toBeNull();
    expect(updateTransaction(engine, ws, id, { notes: '   ' }).notes).toBeNull();
    expect(eventTypes().filter((t) => t.startsWith('transaction'))).toEqual([
      'transaction.tagged',
      'transaction.updated',
      'transaction.tagged',
      'transaction.updated',
    ]);
    expect(txaErrorOf(() => updateTransaction(engine, ws, id, { notes: 5 }))).toMatchObject({ code: 'INVALID_FIELD', field: 'notes' });
    expect(txaErrorOf(() => updateTransaction(engine, ws, id, { tag_ids: 'x' }))).toMatchObject({ code: 'INVALID_FIELD', field: 'tag_ids' });
  });

  it('attaches files under their id, never the user’s path', () => {
    const id = addTx(0);
    const att = attachFile(engine, ws, id, { file_name: '../../etc/passwd', content_type: 'text/plain', data: Buffer.from('receipt') });
    expect(att.file_name).toBe('passwd');
    expect(att.file_size).toBe(7);
    const stored = fileURLToPath(att.file_url);
    expect(stored).toBe(join(engine.filesDir, 'attachments', att.id));
    expect(readFileSync(stored, 'utf8')).toBe('receipt');
    expect(attachFile(engine, ws, id, { file_name: '/abs/path/r.pdf', content_type: 'application/pdf', data: Buffer.from('%PDF') }).file_name).toBe('r.pdf');
    expect(getTransaction(engine, ws, id).attachments.map((a) => a.file_name)).toEqual(['passwd', 'r.pdf']);
    expect(eventTypes().filter((t) => t === 'transaction.updated')).toHaveLength(2);
  });

  it('refuses attachments over 10 MB and beyond 10 per transaction, leaving no file behind', () => {
    const id = addTx(0);
    expect(txaErrorOf(() => attachFile(engine, ws, id, { file_name: 'big', content_type: 'x', data: Buffer.alloc(10 * 1024 * 1024 + 1) }))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
    });
    for (let i = 0; i < 10; i++) attachFile(engine, ws, id, { file_name: `r${i}`, content_type: 'x', data: Buffer.from('x') });
    expect(txaErrorOf(() => attachFile(engine, ws, id, { file_name: 'r11', content_type: 'x', data: Buffer.from('x') })).code).toBe('PAYLOAD_TOO_LARGE');
    expect(readdirSync(join(engine.filesDir, 'attachments'))).toHaveLength(10);
  });

  it('computes wallet balances exactly and values them at the latest price', () => {
    addTx(0, { amount: '2', cents: 400_000 }); // 2 ETH for $4,000.00
    addTx(1, { amount: '0.5', direction: 'outflow', cents: 150_000 }); // latest price: $3,000.00 per ETH
    addTx(2, { amount: '0.000000000000000001', cents: null });
    addTx(3, { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6, amount: '100.25', cents: 10_025 });
    const [w] = listWallets(engine, ws, {}).data;
    expect(w!.balance.native).toBe('1.500000000000000001');
    expect(w!.balance.tokens).toEqual([
      { symbol: 'ETH', address: null, balance: '1.500000000000000001', fiat_value: 4500 },
      { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', balance: '100.25', fiat_value: 100.25 },
    ]);
    expect(w!.balance.fiat_value).toBe(4600.25);
    expect(w!.transaction_count).toBe(4);
  });

  it('removing a wallet removes its transactions and their rollups', () => {
    addTx(0);
    removeWallet(engine, ws, walletId);
    expect(listTransactions(engine, ws, {}).summary).toEqual({ total_inflow: 0, total_outflow: 0, net_flow: 0, transaction_count: 0 });
    expect(eventTypes()).toContain('wallet.deleted');
  });
});

/** The import pipeline on a real ledger: identity, atomicity, dry runs, events, native round trips. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { addWallet, listWallets } from '../../src/engine/wallets.js';
import { createTag, listWorkspaceTags } from '../../src/engine/tags.js';
import { getTransaction, listTransactions } from '../../src/engine/transactions.js';
import { importFile, importRecords } from '../../src/engine/imports.js';
import type { Transaction } from '../../src/core/types.js';
import { txaErrorOf } from '../helpers/errors.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');
const ADDRESS = '0x1234567890abcdef1234567890abcdef12345678';

let engine: Engine;
let ws: string;
let dir: string;

beforeEach(() => ({ engine, ws, dir } = tempEngine('pro')));
afterEach(() => engine.close());

const countOf = (table: string) => (engine.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const eventsOf = (type: string) =>
  (engine.db.prepare('SELECT payload FROM events WHERE type = ? ORDER BY seq').all(type) as { payload: string }[]).map((e) => JSON.parse(e.payload));

/** A Transaction-shaped object as the API shows it. */
function tx(n: number, over: Partial<Transaction> & Record<string, unknown> = {}) {
  return {
    id: `tx_fixture_${n}`,
    tx_hash: `0x${n.toString(16).padStart(64, '0')}`,
    wallet_id: 'wal_main',
    wallet_label: 'Main',
    chain: 'ethereum',
    from_address: '0x9999999999999999999999999999999999999999',
    to_address: ADDRESS,
    token: { symbol: 'ETH', address: null, decimals: 18 },
    amount: `${n}.000000000000000001`,
    fiat_value: n * 10.25,
    direction: 'inflow',
    type: 'transfer',
    timestamp: `2024-01-${String((n % 28) + 1).padStart(2, '0')}T12:00:00Z`,
    tags: [],
    notes: null,
    attachments: [],
    explorer_url: '',
    ...over,
  };
}

function writeJson(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

describe('identity', () => {
  it('re-importing the same file adds nothing and counts duplicates', () => {
    const file = writeJson('a.json', [tx(1), tx(2), tx(3)]);
    expect(importFile(engine, ws, file)).toMatchObject({ format: 'json', imported: 3, duplicates: 0 });
    expect(importFile(engine, ws, file)).toMatchObject({ imported: 0, duplicates: 3 });
    expect(countOf('transactions')).toBe(3);
  });

  it('derives transfer keys per wallet, hash, token and direction, the same for every format', () => {
    const w = addWallet(engine, ws, { address: ADDRESS, chain: 'ethereum' }).id;
    const base = {
      line: 1,
      tx_hash: '0xh',
      from_address: '',
      to_address: ADDRESS,
      amount: '1',
      fiat_value: null,
      timestamp: 1_700_000_000,
      notes: null,
    } as const;
    const eth = { symbol: 'ETH', address: null, decimals: 18 };
    const usdc = { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 };
    importRecords(
      engine,
      ws,
      [
        { ...base, token: eth, direction: 'inflow', type: 'transfer' },
        { ...base, token: eth, direction: 'inflow', type: 'transfer' },
        { ...base, token: usdc, direction: 'outflow', type: 'swap' },
        { ...base, token: eth, direction: 'outflow', type: 'fee' },
      ],
      { walletId: w, format: 'test' },
    );
    const keys = (engine.db.prepare('SELECT transfer_key FROM transactions ORDER BY rowid').all() as { transfer_key: string }[]).map((r) => r.transfer_key);
    expect(keys).toEqual(['t:ETH:inflow:0', 't:ETH:inflow:1', `t:${usdc.address}:outflow:0`, 'fee:ETH:outflow:0']);
  });

  it('derives ids from the identity, whatever id the file carries', () => {
    importFile(engine, ws, writeJson('a.json', [tx(1)]));
    const again = importFile(engine, ws, writeJson('b.json', [tx(1, { id: 'tx_other' }), tx(2, { id: 'tx_fixture_1' })]));
    expect([again.imported, again.duplicates]).toEqual([1, 1]);
    const ids = (engine.db.prepare('SELECT id FROM transactions ORDER BY ts').all() as { id: string }[]).map((r) => r.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^tx_[0-9a-f]{24}$/);
  });
});

describe('atomicity', () => {
  it('a file with one bad row imports nothing, not even the wallet its good rows name', () => {
    const file = writeJson('one-bad.ndjson', [tx(1), tx(2, { amount: '1.2.3' }), tx(3)].map((t) => JSON.stringify(t)).join('\n'));
    const err = txaErrorOf(() => importFile(engine, ws, file));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.extra?.errors).toEqual([{ line: 2, field: 'amount', reason: "not a number: '1.2.3'" }]);
    expect([countOf('transactions'), countOf('wallets'), countOf('events')]).toEqual([0, 0, 0]);
  });

  it('refuses an amount over 78 integer digits (its sort key could not order it)', () => {
    const huge = '1' + '0'.repeat(78);
    const file = writeJson('huge.json', [tx(1, { amount: '9'.repeat(78) }), tx(2, { amount: huge })]);
    const err = txaErrorOf(() => importFile(engine, ws, file));
    expect(err.extra?.errors).toEqual([{ line: 2, field: 'amount', reason: `'${huge}' has more than 78 integer digits` }]);
    expect(countOf('transactions')).toBe(0);
  });

  it('lists every bad row with line, field and reason', () => {
    const err = txaErrorOf(() => importFile(engine, ws, join(FIXTURES, 'bad-rows.ndjson')));
    expect(err.message).toBe('2 rows are invalid; nothing was imported');
    expect(err.extra?.errors).toEqual([
      { line: 3, field: 'amount', reason: "not a number: 'two'" },
      { line: 4, field: 'direction', reason: "must be one of inflow, outflow, got 'sideways'" },
    ]);
    expect(countOf('wallets')).toBe(0);
  });

  it('a tag over the tier limit fails the whole import', () => {
    const free = tempEngine('free');
    try {
      for (let i = 0; i < 100; i++) createTag(free.engine, free.ws, { name: `t${i}`, type: 'neutral' });
      const file = writeJson('tags.json', [tx(1), tx(2, { tags: [{ name: 'one too many' }] })]);
      expect(txaErrorOf(() => importFile(free.engine, free.ws, file)).code).toBe('TAG_LIMIT_EXCEEDED');
      expect((free.engine.db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n).toBe(0);
    } finally {
      free.engine.close();
    }
  });
});

describe('dry run', () => {
  it('counts exactly what a real run would do and writes nothing', () => {
    const file = writeJson('a.json', [tx(1, { tags: ['New tag'] }), tx(2)]);
    importFile(engine, ws, writeJson('first.json', [tx(1)]));
    const before = [countOf('transactions'), countOf('wallets'), countOf('tags'), countOf('events')];
    const dry = importFile(engine, ws, file, { dryRun: true });
    expect(dry).toMatchObject({ imported: 1, duplicates: 1, dry_run: true, wallets: [{ id: 'wal_main', imported: 1 }] });
    expect([countOf('transactions'), countOf('wallets'), countOf('tags'), countOf('events')]).toEqual(before);
    expect(importFile(engine, ws, file)).toMatchObject({ imported: 1, duplicates: 1, dry_run: false });
  });
});

describe('events and wallets', () => {
  it('one transaction.created per inserted row, with the transaction as the API shows it, and wallet.synced', () => {
    process.env.TXA_NOW = '2024-06-01T00:00:00Z';
    try {
      const file = writeJson('a.json', [tx(1, { tags: [{ name: 'Salary', type: 'income' }, 'bonus'], notes: 'March' }), tx(2)]);
      importFile(engine, ws, file);
      importFile(engine, ws, writeJson('b.json', [tx(2), tx(3)]));
    } finally {
      delete process.env.TXA_NOW;
    }
    const created = eventsOf('transaction.created');
    expect(created.map((e) => e.transaction.tx_hash)).toEqual([tx(1).tx_hash, tx(2).tx_hash, tx(3).tx_hash]);
    for (const e of created) expect(e.transaction).toEqual(getTransaction(engine, ws, e.transaction.id));
    expect(created[0].transaction.tags.map((t: { name: string }) => t.name)).toEqual(['bonus', 'Salary']);
    const synced = eventsOf('wallet.synced');
    expect(synced.map((e) => [e.wallet.id, e.imported])).toEqual([
      ['wal_main', 2],
      ['wal_main', 1],
    ]);
    expect(synced[0].wallet).toEqual({
      id: 'wal_main',
      kind: 'address',
      exchange: null,
      address: ADDRESS,
      label: 'Main',
      chain: 'ethereum',
      created_at: '2024-06-01T00:00:00Z',
      last_synced: '2024-06-01T00:00:00Z',
    });
    expect(listWallets(engine, ws, {}).data[0]!.last_synced).not.toBeNull();
    expect(eventsOf('tag.created').map((e) => [e.tag.name, e.tag.type])).toEqual([
      ['Salary', 'income'],
      ['bonus', 'neutral'],
    ]);
  });
});

describe('native round trip', () => {
  it('an export document recreates wallets (same ids, labels, addresses), tags and transactions', () => {
    const outflow = tx(2, {
      wallet_id: 'wal_side',
      wallet_label: 'Side',
      chain: 'polygon',
      direction: 'outflow',
      from_address: ADDRESS,
      to_address: '0x7777777777777777777777777777777777777777',
      token: { symbol: 'USDC', address: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', decimals: 6 },
      amount: '12.5',
      fiat_value: 12.5,
    });
    const doc = {
      export: { id: 'exp_1', format: 'json' },
      summary: {},
      transactions: [tx(1, { tags: [{ id: 'tag_x', name: 'Payroll', color: '#123ABC' }] }), outflow],
    };
    importFile(engine, ws, writeJson('export.json', doc));
    const wallets = listWallets(engine, ws, {}).data.map((w) => [w.id, w.label, w.chain, w.address]);
    expect(wallets).toEqual([
      ['wal_main', 'Main', 'ethereum', ADDRESS],
      ['wal_side', 'Side', 'polygon', ADDRESS],
    ]);
    expect(listWorkspaceTags(engine, ws).map((t) => [t.name, t.color, t.type])).toEqual([['Payroll', '#123ABC', 'neutral']]);

    // Export what the ledger holds and import it into another ledger: the same transactions come out.
    const first = listTransactions(engine, ws, { sort: 'timestamp_asc' }).data;
    expect(first.map((t) => [t.amount, t.fiat_value])).toEqual([
      ['1.000000000000000001', 10.25],
      ['12.5', 12.5],
    ]);
    const other = tempEngine('pro');
    try {
      importFile(other.engine, other.ws, writeJson('again.json', { export: {}, transactions: first }));
      const second = listTransactions(other.engine, other.ws, { sort: 'timestamp_asc' }).data;
      const strip = (list: Transaction[]) => list.map((t) => ({ ...t, tags: t.tags.map(({ name, color }) => ({ name, color })) }));
      expect(strip(second)).toEqual(strip(first));
    } finally {
      other.engine.close();
    }
  });

  it('keeps JSON notes exactly, whitespace included; blank notes are none', () => {
    const notes = ['\tx', ' both ends \n', '   ', ''];
    importFile(
      engine,
      ws,
      writeJson(
        'notes.json',
        notes.map((n, i) => tx(i + 1, { notes: n })),
      ),
    );
    const list = listTransactions(engine, ws, { sort: 'timestamp_asc' }).data;
    expect(list.map((t) => t.notes)).toEqual(['\tx', ' both ends \n', null, null]);
  });

  it('reads its CSV export back: wallet by label, tags, formula quote undone, summary block ignored', () => {
    addWallet(engine, ws, { address: ADDRESS, chain: 'ethereum', label: 'Main' });
    expect(readFileSync(join(FIXTURES, 'txa-export.csv'), 'utf8')).toContain('\nTotal inflow,');
    const s = importFile(engine, ws, join(FIXTURES, 'txa-export.csv'));
    expect(s).toMatchObject({ format: 'csv', imported: 3, skipped: 0 });
    const list = listTransactions(engine, ws, { sort: 'timestamp_asc' }).data;
    const rows = list.map((t) => [t.timestamp, t.token.symbol, t.token.address, t.amount, t.fiat_value, t.type, t.tags.map((g) => g.name)]);
    expect(rows.sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`))).toEqual([
      ['2024-03-01T00:00:00Z', 'ETH', null, '1.25', 4375.5, 'transfer', ['Payroll', 'Salary']],
      ['2024-03-02T14:05:09Z', 'ETH', null, '0.0021', 7.35, 'fee', ['Gas']],
      ['2024-03-02T14:05:09Z', 'USDC', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', '250.5', 250.5, 'transfer', []],
    ]);
    expect(list[0]!.notes).toBe('=SUM(A1) paid, with "quotes"');
    expect(importFile(engine, ws, join(FIXTURES, 'txa-export.csv'))).toMatchObject({ imported: 0, duplicates: 3 });
  });

  it('a CSV export naming a wallet label that does not exist is a bad row, unless --wallet is given', () => {
    const err = txaErrorOf(() => importFile(engine, ws, join(FIXTURES, 'txa-export.csv')));
    expect(err.extra?.errors).toHaveLength(3);
    // biome-ignore lint/correctness/noUnsafeOptionalChaining: the line before asserts the errors are there
    expect((err.extra?.errors as { field: string }[])[0]!.field).toBe('wallet_label');
    const w = addWallet(engine, ws, { address: ADDRESS, chain: 'ethereum', label: 'Other' }).id;
    expect(importFile(engine, ws, join(FIXTURES, 'txa-export.csv'), { walletId: w }).imported).toBe(3);
  });
});

describe('formats and wallets', () => {
  it('detects a JSON array, NDJSON and an export document', () => {
    const ndjson = [tx(1), tx(2)].map((t) => JSON.stringify(t)).join('\n') + '\n';
    expect(importFile(engine, ws, writeJson('a.ndjson', ndjson)).format).toBe('ndjson');
    expect(importFile(engine, ws, writeJson('b.json', `\uFEFF${JSON.stringify([tx(3)], null, 2)}`)).format).toBe('json');
    expect(importFile(engine, ws, writeJson('c.json', { export: {}, transactions: [tx(4)] })).format).toBe('json');
  });

  it('rows that name no wallet need --wallet (a usage error), and --wallet must exist', () => {
    const { wallet_id: _a, wallet_label: _b, ...bare } = tx(1);
    const file = writeJson('bare.json', [bare]);
    const usage = txaErrorOf(() => importFile(engine, ws, file));
    expect([usage.code, usage.field, usage.exitCode]).toEqual(['USAGE_ERROR', 'wallet', 2]);
    expect(txaErrorOf(() => importFile(engine, ws, file, { walletId: 'wal_nope' })).code).toBe('WALLET_NOT_FOUND');
    const w = addWallet(engine, ws, { address: ADDRESS, chain: 'ethereum' }).id;
    expect(importFile(engine, ws, file, { walletId: w }).wallets).toEqual([{ id: w, label: expect.any(String), imported: 1 }]);
  });

  it('refuses a row on another chain than --wallet', () => {
    const w = addWallet(engine, ws, { address: ADDRESS, chain: 'bsc' }).id;
    const err = txaErrorOf(() => importFile(engine, ws, writeJson('a.json', [tx(1)]), { walletId: w }));
    expect(err.extra?.errors).toEqual([{ line: 1, field: 'chain', reason: `the row is on ethereum but wallet ${w} is on bsc` }]);
  });

  it('a file in no known format is refused with a hint', () => {
    const err = txaErrorOf(() => importFile(engine, ws, writeJson('x.csv', 'foo,bar\n1,2\n')));
    expect([err.code, err.field]).toEqual(['IMPORT_FAILED', 'format']);
  });
});

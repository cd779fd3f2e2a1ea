/**
 * Fiat values on a real ledger file: set by hand (exact cents, `manual`, never overwritten),
 * fees of an explorer file valued at their own day's price (never TxnFee(USD)) and revalued by a
 * re-import, and the history that records each change with its actor, old and new values, and an
 * import's source file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import { txaErrorOf } from '../helpers/errors.js';
import { Engine } from '../../src/engine/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importFile } from '../../src/engine/imports.js';
import { getTransaction, listTransactions } from '../../src/engine/transactions.js';
import { updateTransaction } from '../../src/engine/transaction-edits.js';
import { transactionHistory } from '../../src/engine/history.js';
import { selectById } from '../../src/store/transactions.js';
import { updateValue } from '../../src/store/insert-transactions.js';

const WALLET = '0x' + '1'.repeat(40);
const OTHER = '0x' + '2'.repeat(40);
const HEADER =
  'Txhash,Blockno,UnixTimestamp,DateTime (UTC),From,To,ContractAddress,Value_IN(ETH),Value_OUT(ETH),CurrentValue @ $9999/Eth,TxnFee(ETH),TxnFee(USD),Historical $Price/Eth,Status,ErrCode,Method';
const h = (n: number) => `0x${String(n).repeat(64).slice(0, 64)}`;
/** Two sends a year apart at $2,000 and $3,000 (fee 0.01 ETH; the explorer's TxnFee(USD) at today's $9,999), and one on a day without a price. */
const CSV = [
  HEADER,
  `${h(1)},1,1704103200,2024-01-01 10:00:00,${WALLET},${OTHER},,0,1,9999,0.01,99.99,2000,,,Transfer`,
  `${h(2)},2,1735725600,2025-01-01 10:00:00,${WALLET},${OTHER},,0,0.5,4999.5,0.01,99.99,3000,,,Transfer`,
  `${h(3)},3,1735812000,2025-01-02 10:00:00,${WALLET},${OTHER},,0,0.5,4999.5,0.02,199.98,,,,Transfer`,
].join('\n');

let engine: Engine;
let ws: string;
let dir: string;
let walletId: string;
let file: string;

beforeEach(() => {
  ({ engine, ws, dir } = tempEngine('pro'));
  walletId = engine.write(() => insertNewWallet(engine, ws, { address: WALLET, chain: 'ethereum', label: 'Main' }).id);
  file = join(dir, 'etherscan-main.csv');
  writeFileSync(file, CSV);
});
afterEach(() => engine.close());

const rows = () => listTransactions(engine, ws, { sort: 'timestamp_asc', limit: '200' }).data;
const fees = () => rows().filter((t) => t.type === 'fee');
/** The first send's value row: 1 ETH at $2,000. */
const firstValue = () => rows().find((t) => t.type === 'transfer')!;

describe('fees at the price of their own day', () => {
  it('values each fee with its row’s Historical $Price, never TxnFee(USD); no price: unpriced', () => {
    importFile(engine, ws, file, { walletId });
    expect(fees().map((t) => [t.amount, t.fiat_value, t.fiat_value_source])).toEqual([
      ['0.01', 20, 'import'],
      ['0.01', 30, 'import'],
      ['0.02', null, null],
    ]);
  });

  it('a re-import revalues fees stored by the old rule, with events carrying old and new and the file; manual values stay', () => {
    importFile(engine, ws, file, { walletId });
    const [first, second, third] = fees();
    // As an older txa stored them: the explorer's value at today's price (rollups kept in step).
    engine.write(() =>
      [first, second, third].forEach((t) =>
        updateValue(engine.db, selectById(engine.db, ws, t!.id)!, { fiat_cents: 9999, fiat_value_source: 'import', spam: 0 }),
      ),
    );
    updateTransaction(engine, ws, second!.id, { fiat_value: 12.34 });
    const summary = importFile(engine, ws, file, { walletId });
    expect(summary).toMatchObject({ imported: 0, revalued: 2 });
    expect(fees().map((t) => [t.fiat_value, t.fiat_value_source])).toEqual([
      [20, 'import'],
      [12.34, 'manual'],
      [null, null],
    ]);
    const sha256 = createHash('sha256').update(CSV).digest('hex');
    expect(transactionHistory(engine, ws, first!.id).at(-1)).toMatchObject({
      event: 'transaction.updated',
      actor: 'cli',
      changes: { fiat_value: { old: 99.99, new: 20 } },
      source: { file_name: 'etherscan-main.csv', sha256, format: 'etherscan' },
    });
    // The summary follows the new values exactly.
    const outflow = rows()
      .filter((t) => t.direction === 'outflow')
      .reduce((s, t) => s + Math.round((t.fiat_value ?? 0) * 100), 0);
    expect(Math.round(listTransactions(engine, ws, {}).summary.total_outflow * 100)).toBe(outflow);
  });

  it('records the import’s file, SHA-256 and format on each transaction.created', () => {
    importFile(engine, ws, file, { walletId });
    const [created] = transactionHistory(engine, ws, firstValue().id);
    expect(created).toEqual({
      event_id: expect.stringMatching(/^evt_/),
      event: 'transaction.created',
      created_at: expect.any(String),
      actor: 'cli',
      changes: {},
      source: { file_name: 'etherscan-main.csv', sha256: createHash('sha256').update(CSV).digest('hex'), format: 'etherscan' },
    });
  });
});

describe('fiat values by hand', () => {
  beforeEach(() => importFile(engine, ws, file, { walletId }));

  it('sets exact cents with the source manual, keeps the totals exact, and records the actor with old and new', () => {
    const value = firstValue();
    const before = listTransactions(engine, ws, {}).summary.total_outflow;
    const keyEngine = new Engine(engine.db, join(dir, 'ledger.db'), { actor: 'key_0123456789abcdef0123' });
    const tx = updateTransaction(keyEngine, ws, value.id, { fiat_value: 2100.1 });
    expect([tx.fiat_value, tx.fiat_value_source]).toEqual([2100.1, 'manual']);
    expect(listTransactions(engine, ws, {}).summary.total_outflow).toBeCloseTo(before - 2000 + 2100.1, 2);
    expect(transactionHistory(engine, ws, value.id).at(-1)).toMatchObject({
      actor: 'key_0123456789abcdef0123',
      changes: { fiat_value: { old: 2000, new: 2100.1 }, fiat_value_source: { old: 'import', new: 'manual' } },
    });
    // A re-import never overwrites it.
    importFile(engine, ws, file, { walletId });
    expect(getTransaction(engine, ws, value.id).fiat_value).toBe(2100.1);
    // Cleared: no value, no source.
    expect(updateTransaction(engine, ws, value.id, { fiat_value: null })).toMatchObject({ fiat_value: null, fiat_value_source: null });
  });

  it('refuses negative values, more than 2 decimals and non-numbers with INVALID_FIELD fiat_value, changing nothing', () => {
    const value = firstValue();
    const events = () => engine.db.prepare('SELECT count(*) FROM events').pluck().get();
    const before = events();
    for (const bad of [-1, 1.005, 0.1 + 0.2, '12.50', true, 1e13]) {
      expect(txaErrorOf(() => updateTransaction(engine, ws, value.id, { fiat_value: bad }))).toMatchObject({ code: 'INVALID_FIELD', field: 'fiat_value' });
    }
    expect(getTransaction(engine, ws, value.id)).toEqual(value);
    expect(events()).toBe(before);
  });

  it('spam rows leave lists and totals unless asked for', () => {
    const value = firstValue();
    const all = listTransactions(engine, ws, {});
    updateTransaction(engine, ws, value.id, { spam: true });
    const without = listTransactions(engine, ws, {});
    expect(without.pagination.total).toBe(all.pagination.total - 1);
    expect(without.summary.total_outflow).toBeCloseTo(all.summary.total_outflow - 2000, 2);
    expect(listTransactions(engine, ws, { include_spam: 'true' }).summary).toEqual(all.summary);
    expect(transactionHistory(engine, ws, value.id).at(-1)!.changes).toEqual({ spam: { old: false, new: true } });
  });
});

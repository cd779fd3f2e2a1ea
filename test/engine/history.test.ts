/**
 * The audit reads the change history of many transactions in one statement (historiesOf): each
 * one's entries must be what its own history says, in order, on a real ledger.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importFile } from '../../src/engine/imports.js';
import { listTransactions } from '../../src/engine/transactions.js';
import { updateTransaction } from '../../src/engine/transaction-edits.js';
import { historiesOf, transactionHistory } from '../../src/engine/history.js';

const WALLET = '0x' + '1'.repeat(40);
const OTHER = '0x' + '2'.repeat(40);
const HEADER =
  'Txhash,Blockno,UnixTimestamp,DateTime (UTC),From,To,ContractAddress,Value_IN(ETH),Value_OUT(ETH),CurrentValue @ $9999/Eth,TxnFee(ETH),TxnFee(USD),Historical $Price/Eth,Status,ErrCode,Method';
const h = (n: number) => `0x${String(n).repeat(64).slice(0, 64)}`;
const CSV = [
  HEADER,
  ...[1, 2, 3, 4].map((n) => `${h(n)},${n},${1704103200 + n * 86400},2024-01-0${n + 1} 10:00:00,${OTHER},${WALLET},,${n},0,0,0,0,2000,,,Transfer`),
].join('\n');

let engine: Engine;
let ws: string;

beforeEach(() => {
  let dir: string;
  ({ engine, ws, dir } = tempEngine('pro'));
  const walletId = engine.write(() => insertNewWallet(engine, ws, { address: WALLET, chain: 'ethereum', label: 'Main' }).id);
  const file = join(dir, 'etherscan.csv');
  writeFileSync(file, CSV);
  importFile(engine, ws, file, { walletId });
});
afterEach(() => engine.close());

describe('historiesOf', () => {
  it('gives each transaction its own entries, oldest first, as transactionHistory does; unknown ids are absent', () => {
    const ids = listTransactions(engine, ws, { sort: 'timestamp_asc', limit: '10' }).data.map((t) => t.id);
    expect(ids).toHaveLength(4);
    updateTransaction(engine, ws, ids[1]!, { notes: 'first note' });
    updateTransaction(engine, ws, ids[1]!, { notes: 'second note', fiat_value: 12.5 });
    updateTransaction(engine, ws, ids[3]!, { notes: 'other' });
    const asked = [ids[3]!, ids[1]!, 'tx_unknown', ids[0]!];
    const all = historiesOf(engine, asked);
    expect([...all.keys()].sort()).toEqual([ids[0]!, ids[1]!, ids[3]!].sort());
    for (const id of [ids[0]!, ids[1]!, ids[3]!]) expect(all.get(id)).toEqual(transactionHistory(engine, ws, id));
    expect(all.get(ids[1]!)!.map((e) => e.event)).toEqual(['transaction.created', 'transaction.updated', 'transaction.updated']);
    expect(all.get(ids[1]!)![2]!.changes).toMatchObject({ notes: { old: 'first note', new: 'second note' } });
    expect(historiesOf(engine, []).size).toBe(0);
  });
});

/**
 * Binance's transaction history CSV (docs/import.md "binance"): `User_ID,UTC_Time,Account,
 * Operation,Coin,Change,Remark`, one signed change of one coin per row. One trade is split over
 * several rows of the same second and account (`Buy`/`Sell`, `Transaction Spend`/`Transaction
 * Buy`, `Transaction Sold`/`Transaction Revenue`, `Fee`/`Transaction Fee`, `Transaction Related`,
 * `Binance Convert`, `Small Assets Exchange BNB`): they are read together as one trade. The file
 * has no row ids, so a trade's hash is derived from its second, account and user, and any other
 * row's from its content.
 */
import { BATCH_ROWS, Columns, collect, csvRows, emptyResult, FieldError, fail, mapRow, requireColumns, tableOf, type CsvRow } from './csv.js';
import { Occurrences } from './occurrences.js';
import { dateTimeOf, syntheticHash, syntheticHashes } from './fields.js';
import {
  abs,
  type Fiat,
  feeRecord,
  fiatOnly,
  type IncomeWord,
  isFiat,
  isNegative,
  minus,
  moveRecord,
  plus,
  requireExchangeWallet,
  signedAmount,
} from './exchange-rows.js';
import type { ImportRecord, Importer, ParseResult } from './types.js';

const REQUIRED = ['UTC_Time', 'Account', 'Operation', 'Coin', 'Change'] as const;

/** The operations that are part of a trade: read together per second and account. */
const TRADE_OPS = new Set([
  'buy',
  'sell',
  'fee',
  'transaction related',
  'transaction spend',
  'transaction buy',
  'transaction fee',
  'transaction revenue',
  'transaction sold',
  'binance convert',
  'large otc trading',
  'small assets exchange bnb',
]);
const FEE_OPS = new Set(['fee', 'transaction fee']);

/** The income word of an operation (`Simple Earn Flexible Interest` → Interest, `ETH 2.0 Staking Rewards` → Staking). */
function incomeOf(op: string): IncomeWord | undefined {
  if (/interest/.test(op)) return 'Interest';
  if (/staking/.test(op) && /reward/.test(op)) return 'Staking';
  if (/reward|distribution|airdrop|commission|cashback|kickback/.test(op)) return 'Rewards';
  return undefined;
}

/** Moves between Binance's own accounts (spot, funding, earn, staking): both sides are in the file and cancel. */
const INTERNAL = /subscription|redemption|purchase|transfer between|account transfer|^transfer_(?:in|out)$/;

interface Row {
  line: number;
  cells: string[];
  ts: number;
  time: string;
  account: string;
  op: string;
  opText: string;
  coin: string;
  change: string;
  user: string;
}

export const binanceImporter: Importer = {
  format: 'binance',
  needsWallet: true,
  exchange: true,
  detect({ header }) {
    return new Columns(header ?? []).has('UTC_Time', 'Operation', 'Coin', 'Change');
  },
  parse(text, ctx) {
    return collect('binance', this.stream!(csvRows([text]), ctx));
  },
  stream(records, ctx) {
    requireExchangeWallet('binance', ctx);
    const table = tableOf(records);
    const cols = new Columns(table.header);
    requireColumns(
      REQUIRED.filter((c) => cols.find(c) < 0),
      { hint: "Generate the Transaction History statement (CSV) on Binance's Orders > Transaction History page." },
    );
    return binanceBatches(table.rows, cols.pick([...REQUIRED, 'User_ID', 'Remark']));
  },
};

type At = Record<(typeof REQUIRED)[number] | 'User_ID' | 'Remark', number>;

/**
 * The rows in batches of BATCH_ROWS lines. A trade's rows (one second and account) are read
 * together and written at the first of them once the batch is read; the trades of the batch's
 * last second wait for the next batch, which may hold more of their rows (Binance lists a
 * trade's rows next to each other). A trade row of a trade already written is a bad row.
 */
function* binanceBatches(rows: Iterable<CsvRow>, at: At): Generator<ParseResult> {
  const hashOf = syntheticHashes('binance');
  /** Trades not written yet, by second and account. */
  const open = new Map<string, Row[]>();
  /** Trade keys met, so a trade's row after the trade was written is found. */
  const met = new Occurrences();
  let carried: Row[] = [];
  let batch = emptyResult('binance');
  /** The batch's rows: single rows and the first row of each trade, in file order. */
  let firsts: Row[] = [];
  let last: number | undefined;
  const flush = (end: boolean): ParseResult => {
    const out = batch;
    const waiting: Row[] = [];
    for (const r of [...carried, ...firsts]) {
      const key = tradeKey(r);
      const group = key === undefined ? undefined : open.get(key);
      if (group && r.ts === last && !end) {
        waiting.push(r);
        continue;
      }
      if (key !== undefined) open.delete(key);
      mapRow(out, r, () => (group ? trade(group) : single(r, hashOf(r.cells))), group ?? [r]);
    }
    carried = waiting;
    batch = emptyResult('binance');
    firsts = [];
    return out;
  };
  let n = 0;
  for (const { line, cells } of rows) {
    try {
      const r = rowOf(line, cells, at);
      last = r.ts;
      const key = tradeKey(r);
      if (key === undefined) firsts.push(r);
      else if (open.has(key)) open.get(key)!.push(r);
      else if (met.seen(key))
        fail('UTC_Time', `a row of the trade at ${r.time} (${r.account}) comes after the trade's other rows were read; sort the file by UTC_Time`);
      else {
        open.set(key, [r]);
        firsts.push(r);
      }
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      batch.errors.push({ line, field: err.field, reason: err.message });
    }
    if (++n % BATCH_ROWS === 0) yield flush(false);
  }
  yield flush(true);
}

/** The trade a row is part of (its second and account), or undefined for a row of its own. */
const tradeKey = (r: Row): string | undefined => (TRADE_OPS.has(r.op) ? `${r.ts}\0${r.account}` : undefined);

function rowOf(line: number, cells: string[], at: At): Row {
  const get = (i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
  const time = get(at.UTC_Time);
  const change = signedAmount(get(at.Change), 'Change');
  if (change === null) fail('Change', 'is empty');
  const coin = get(at.Coin);
  if (coin === '') fail('Coin', 'is empty');
  const opText = get(at.Operation);
  return {
    line,
    cells,
    ts: dateTimeOf(time, 'UTC_Time'),
    time,
    account: get(at.Account),
    op: opText.toLowerCase(),
    opText,
    coin: coin.toUpperCase(),
    change,
    user: get(at.User_ID),
  };
}

/**
 * One trade from its rows: per coin the sum of its changes (fees apart). A coin bought for fiat
 * is an inflow valued at the fiat spent plus the fiat fee; a coin sold for fiat an outflow valued
 * at the fiat received less it; coins for coins are outflows and inflows sharing the trade's
 * hash; each coin fee its own `fee` row.
 */
function trade(group: Row[]): ImportRecord[] | string {
  const first = group[0]!;
  const hash = syntheticHash('binance', [first.user, first.time, first.account]);
  const net = new Map<string, { change: string; line: number }>();
  const fees = new Map<string, { change: string; line: number }>();
  for (const r of group) {
    const into = FEE_OPS.has(r.op) ? fees : net;
    const had = into.get(r.coin);
    into.set(r.coin, { change: had ? plus(had.change, r.change) : r.change, line: had?.line ?? r.line });
  }
  const fiat = [...net.entries()].filter(([coin]) => isFiat(coin));
  const coins = [...net.entries()].filter(([coin, v]) => !isFiat(coin) && v.change !== '0');
  if (coins.length === 0) return fiatOnly('trade', fiat[0]?.[0] ?? first.coin);
  if (fiat.length > 1) fail('Coin', `the trade at ${first.time} moves two fiat currencies (${fiat.map(([c]) => c).join(', ')})`);
  const paid = fiat[0];
  const fiatFee = paid ? abs(fees.get(paid[0])?.change ?? '0') : '0';
  const records: ImportRecord[] = [];
  for (const [coin, v] of coins) {
    const direction = isNegative(v.change) ? 'outflow' : 'inflow';
    const value: Fiat | null = paid
      ? { amount: direction === 'inflow' ? plus(abs(paid[1].change), fiatFee) : minus(abs(paid[1].change), fiatFee), currency: paid[0] }
      : null;
    records.push(
      moveRecord({
        line: v.line,
        tx_hash: hash,
        timestamp: first.ts,
        symbol: coin,
        amount: abs(v.change),
        direction,
        type: 'swap',
        fiat: value,
        field: 'Change',
      }),
    );
  }
  for (const [coin, v] of fees) {
    if (isFiat(coin)) continue;
    records.push(...feeRecord({ line: v.line, tx_hash: hash, timestamp: first.ts, symbol: coin, amount: abs(v.change), field: 'Change' }));
  }
  return records;
}

/** A row of its own: a deposit, a withdrawal, a reward, or a move between Binance's accounts. */
function single(r: Row, hash: string): ImportRecord[] | string {
  if (INTERNAL.test(r.op)) return `${r.opText}: moves between Binance accounts`;
  if (isFiat(r.coin) || /^fiat /.test(r.op)) return fiatOnly(r.opText, r.coin);
  const base = { line: r.line, tx_hash: hash, timestamp: r.ts, symbol: r.coin, amount: abs(r.change), field: 'Change', notes: r.opText };
  const direction = isNegative(r.change) ? 'outflow' : 'inflow';
  if (r.op === 'deposit' || r.op === 'withdraw' || r.op === 'withdrawal') return [moveRecord({ ...base, direction, type: 'transfer' })];
  const income = incomeOf(r.op);
  if (income && direction === 'inflow') return [moveRecord({ ...base, direction, type: 'transfer', income })];
  return fail('Operation', `unknown Binance operation '${r.opText}'`);
}

/**
 * Binance's transaction history CSV (docs/import.md "binance"): `User_ID,UTC_Time,Account,
 * Operation,Coin,Change,Remark`, one signed change of one coin per row. One trade is split over
 * several rows of the same second and account (`Buy`/`Sell`, `Transaction Spend`/`Transaction
 * Buy`, `Transaction Sold`/`Transaction Revenue`, `Fee`/`Transaction Fee`, `Transaction Related`,
 * `Binance Convert`, `Small Assets Exchange BNB`): they are read together as one trade. The file
 * has no row ids, so a trade's hash is derived from its second, account and user, and any other
 * row's from its content.
 */
import { Columns, FieldError, fail, readCsv, requireColumns, type CsvRow } from './csv.js';
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
import type { ImportRecord, Importer, ParseResult, RowError } from './types.js';

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
    requireExchangeWallet('binance', ctx);
    const table = readCsv(text);
    const cols = new Columns(table.header);
    requireColumns(
      REQUIRED.filter((c) => cols.find(c) < 0),
      { hint: "Generate the Transaction History statement (CSV) on Binance's Orders > Transaction History page." },
    );
    const at = cols.pick([...REQUIRED, 'User_ID', 'Remark']);
    const get = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    const errors: RowError[] = [];
    const skipped: ParseResult['skipped'] = [];
    const rows: Row[] = [];
    for (const { line, cells } of table.rows as CsvRow[]) {
      try {
        const time = get(cells, at.UTC_Time);
        const change = signedAmount(get(cells, at.Change), 'Change');
        if (change === null) fail('Change', 'is empty');
        const coin = get(cells, at.Coin);
        if (coin === '') fail('Coin', 'is empty');
        const opText = get(cells, at.Operation);
        rows.push({
          line,
          cells,
          ts: dateTimeOf(time, 'UTC_Time'),
          time,
          account: get(cells, at.Account),
          op: opText.toLowerCase(),
          opText,
          coin: coin.toUpperCase(),
          change,
          user: get(cells, at.User_ID),
        });
      } catch (err) {
        if (!(err instanceof FieldError)) throw err;
        errors.push({ line, field: err.field, reason: err.message });
      }
    }
    // A trade's rows: the same second and account.
    const trades = new Map<string, Row[]>();
    for (const r of rows) {
      if (!TRADE_OPS.has(r.op)) continue;
      const key = `${r.ts}\0${r.account}`;
      const group = trades.get(key) ?? [];
      group.push(r);
      trades.set(key, group);
    }
    const hashOf = syntheticHashes('binance');
    const records: ImportRecord[] = [];
    for (const r of rows) {
      try {
        if (TRADE_OPS.has(r.op)) {
          const group = trades.get(`${r.ts}\0${r.account}`)!;
          if (group[0] !== r) continue;
          const out = trade(group);
          if (typeof out === 'string') for (const g of group) skipped.push({ line: g.line, reason: out });
          else records.push(...out);
          continue;
        }
        const out = single(r, hashOf(r.cells));
        if (typeof out === 'string') skipped.push({ line: r.line, reason: out });
        else records.push(...out);
      } catch (err) {
        if (!(err instanceof FieldError)) throw err;
        errors.push({ line: r.line, field: err.field, reason: err.message });
      }
    }
    return { format: 'binance', records, errors, skipped };
  },
};

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

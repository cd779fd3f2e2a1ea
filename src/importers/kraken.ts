/**
 * Kraken's ledgers CSV (docs/import.md "kraken"): `txid,refid,time,type,subtype,aclass,asset,
 * amount,fee,balance`, later with `subclass` and `wallet`. Amounts are signed, the fee is
 * charged on top (balance = previous + amount − fee). A trade is two rows sharing `refid` (so is
 * an instant buy: `spend` and `receive`); assets carry Kraken's names (`XXBT`, `XETH`, `ZUSD`,
 * `ETH2.S`, `DOT.S`, `USDC.M`), read as the coin they stand for.
 */
import { BATCH_ROWS, Columns, collect, csvRows, emptyResult, FieldError, fail, mapRow, requireColumns, tableOf, type CsvRow } from './csv.js';
import { Occurrences } from './occurrences.js';
import { dateTimeOf } from './fields.js';
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
import type { Direction, TxType } from '../core/types.js';

const REQUIRED = ['txid', 'refid', 'time', 'type', 'asset', 'amount', 'fee'] as const;

/** Kraken's legacy four-letter names (X for coins, Z for fiat) and its own short names. */
const LEGACY: Record<string, string> = { XBT: 'BTC', XDG: 'DOGE', XXBT: 'BTC', XXDG: 'DOGE', ETH2: 'ETH' };

/**
 * The coin a Kraken asset name stands for: `XXBT` BTC, `XETH` ETH, `ZUSD` USD, and the staked or
 * earning variants (`ETH2.S`, `ETH2`, `DOT.S`, `DOT28.S`, `USDC.M`, `SOL.F`) as their coin, since
 * moving a coin into staking at Kraken is no disposal of it.
 */
export function krakenAsset(name: string): string {
  let asset = assets.get(name);
  if (asset === undefined) {
    // A file of ever new names keeps at most this many.
    if (assets.size >= 1024) assets.clear();
    asset = assetOf(name);
    assets.set(name, asset);
  }
  return asset;
}

/** Asset names read, by the name as written: a file names a few on every row. */
const assets = new Map<string, string>();

function assetOf(name: string): string {
  let a = name
    .trim()
    .toUpperCase()
    .replace(/\.[A-Z]$/, '');
  a = a.replace(/^([A-Z]{2,})\d{2}$/, '$1'); // DOT28 (bonded for 28 days)
  if (LEGACY[a]) return LEGACY[a]!;
  if (a.length === 4 && (a[0] === 'X' || a[0] === 'Z')) a = a.slice(1);
  return LEGACY[a] ?? a;
}

/** Rows that move a coin between parts of the account (spot, staking, earn): nothing leaves it. */
const INTERNAL_SUBTYPES = new Set(['spottostaking', 'stakingfromspot', 'stakingtospot', 'spotfromstaking', 'spottofutures', 'spotfromfutures']);
const INTERNAL_EARN = new Set(['allocation', 'deallocation', 'autoallocation', 'migration']);

interface Leg {
  line: number;
  txid: string;
  refid: string;
  ts: number;
  type: string;
  subtype: string;
  asset: string;
  /** Signed. */
  amount: string;
  fee: string;
}

export const krakenImporter: Importer = {
  format: 'kraken',
  needsWallet: true,
  exchange: true,
  detect({ header }) {
    return new Columns(header ?? []).has('txid', 'refid', 'time', 'type', 'asset', 'amount', 'fee', 'balance');
  },
  parse(text, ctx) {
    return collect('kraken', this.stream!(csvRows([text]), ctx));
  },
  stream(records, ctx) {
    requireExchangeWallet('kraken', ctx);
    const table = tableOf(records);
    const cols = new Columns(table.header);
    requireColumns(
      REQUIRED.filter((c) => cols.find(c) < 0),
      { hint: "Export the Ledgers report (CSV) from Kraken's History > Export page." },
    );
    const at = cols.pick([...REQUIRED, 'subtype']);
    return krakenBatches(table.rows, at);
  },
};

/**
 * The rows in batches of BATCH_ROWS lines. A trade's legs (one refid) are written together, at
 * the first leg, once the batch is read; a trade still missing its second leg at a batch's end
 * waits for the next (Kraken lists the two next to each other), and one whose refid comes again
 * after it was written is a bad row.
 */
function* krakenBatches(rows: Iterable<CsvRow>, at: Record<(typeof REQUIRED)[number] | 'subtype', number>): Generator<ParseResult> {
  const get = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
  /** Trades not written yet, by refid. */
  const open = new Map<string, Leg[]>();
  /** Refids met, so a trade's row after the trade was written is found. */
  const met = new Occurrences();
  /** Trades whose first leg came in an earlier batch, still waiting for a leg. */
  let carried: Leg[][] = [];
  let batch = emptyResult('kraken');
  /** The batch's legs: single rows and the first leg of each trade, in file order. */
  let legs: Leg[] = [];
  const flush = (end: boolean): ParseResult => {
    const out = batch;
    const waiting: Leg[][] = [];
    // Trades that began in earlier batches first: their first legs came first.
    for (const leg of [...carried.map((g) => g[0]!), ...legs]) {
      const group = isTradeLeg(leg) ? open.get(leg.refid) : undefined;
      if (group && group.length < 2 && !end) {
        waiting.push(group);
        continue;
      }
      if (group) open.delete(leg.refid);
      mapRow(out, leg, () => (group ? trade(group) : single(leg)), group ?? [leg]);
    }
    carried = waiting;
    batch = emptyResult('kraken');
    legs = [];
    return out;
  };
  let n = 0;
  for (const { line, cells } of rows) {
    try {
      const leg = legOf(line, cells, get, at);
      if (typeof leg === 'string') batch.skipped.push({ line, reason: leg });
      else if (!isTradeLeg(leg)) legs.push(leg);
      else if (open.has(leg.refid)) open.get(leg.refid)!.push(leg);
      else if (met.seen(leg.refid)) fail('refid', `trade ${leg.refid} has more than two rows; a trade is two (what was given, what was received)`);
      else {
        open.set(leg.refid, [leg]);
        legs.push(leg);
      }
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      batch.errors.push({ line, field: err.field, reason: err.message });
    }
    if (++n % BATCH_ROWS === 0) yield flush(false);
  }
  yield flush(true);
}

const isTradeLeg = (leg: Leg) => leg.type === 'trade' || leg.type === 'spend' || leg.type === 'receive';

/** A ledger row read, or why it is skipped. */
function legOf(
  line: number,
  cells: string[],
  get: (cells: string[], i: number) => string,
  at: Record<(typeof REQUIRED)[number] | 'subtype', number>,
): Leg | string {
  const txid = get(cells, at.txid);
  // A pending deposit is listed once without txid, then again with it when credited.
  if (txid === '') return 'no txid yet (a pending entry Kraken lists again once settled)';
  const amount = signedAmount(get(cells, at.amount), 'amount');
  if (amount === null) fail('amount', 'is empty');
  const fee = abs(signedAmount(get(cells, at.fee), 'fee') ?? '0');
  const asset = get(cells, at.asset);
  if (asset === '') fail('asset', 'is empty');
  return {
    line,
    txid,
    refid: get(cells, at.refid),
    ts: dateTimeOf(get(cells, at.time), 'time'),
    type: get(cells, at.type).toLowerCase(),
    subtype: get(cells, at.subtype).toLowerCase(),
    asset: krakenAsset(asset),
    amount,
    fee,
  };
}

/** A record of a leg's coin (no spread objects: two of these per row were a tenth of an import's mapping). */
const recordOf = (leg: Leg, tx_hash: string, amount: string, direction: Direction, type: TxType, fiat: Fiat | null, income?: IncomeWord): ImportRecord =>
  moveRecord({ line: leg.line, tx_hash, timestamp: leg.ts, symbol: leg.asset, amount, direction, type, fiat, income, notes: null, field: 'amount' });

/** `record`, then the coin fee of its leg as its own row (a zero fee makes none). */
function withFee(into: ImportRecord[], leg: Leg, tx_hash: string, record: ImportRecord): ImportRecord[] {
  into.push(record);
  if (leg.fee !== '0') into.push(...feeRecord({ line: leg.line, tx_hash, timestamp: leg.ts, symbol: leg.asset, amount: leg.fee, notes: null, field: 'fee' }));
  return into;
}

/**
 * A trade's legs (one refid): coin for fiat is a buy valued at the fiat paid plus its fee, or a
 * sale at the fiat received less its fee; coin for coin two rows sharing the refid; each coin fee
 * its own row. Fiat for fiat (a currency exchange) moves no token.
 */
function trade(group: Leg[]): ImportRecord[] | string {
  const coins = group.filter((l) => !isFiat(l.asset));
  const fiat = group.filter((l) => isFiat(l.asset));
  if (coins.length === 0) return fiatOnly('trade', fiat[0]!.asset);
  const hash = group[0]!.refid || group[0]!.txid;
  if (group.length !== 2) fail('refid', `trade ${hash} has ${group.length} rows; a trade is two (what was given, what was received)`);
  const records: ImportRecord[] = [];
  const paid = fiat[0];
  for (const leg of coins) {
    const direction = isNegative(leg.amount) ? 'outflow' : 'inflow';
    const value = paid ? { amount: direction === 'inflow' ? plus(abs(paid.amount), paid.fee) : minus(abs(paid.amount), paid.fee), currency: paid.asset } : null;
    withFee(records, leg, hash, recordOf(leg, hash, abs(leg.amount), direction, 'swap', value));
  }
  return records;
}

/** A row of its own: a deposit, withdrawal, reward, or a move inside the account. */
function single(leg: Leg): ImportRecord[] | string {
  const hash = leg.txid;
  if ((leg.type === 'transfer' && INTERNAL_SUBTYPES.has(leg.subtype)) || (leg.type === 'earn' && INTERNAL_EARN.has(leg.subtype))) {
    return `${leg.type}/${leg.subtype}: moves within the account`;
  }
  if (isFiat(leg.asset)) return fiatOnly(leg.type, leg.asset);
  const move = (direction: Direction, income?: IncomeWord) => withFee([], leg, hash, recordOf(leg, hash, abs(leg.amount), direction, 'transfer', null, income));
  const sign = isNegative(leg.amount) ? 'outflow' : 'inflow';
  switch (leg.type) {
    case 'deposit':
    case 'withdrawal':
    case 'transfer':
      return move(sign);
    case 'staking':
      if (sign === 'inflow') return move('inflow', 'Staking');
      break;
    case 'earn':
      if (leg.subtype === 'reward' && sign === 'inflow') return move('inflow', 'Rewards');
      break;
  }
  return fail('type', `unknown Kraken ledger type '${leg.type}${leg.subtype ? `/${leg.subtype}` : ''}'`);
}

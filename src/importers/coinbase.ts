/**
 * Coinbase's transaction history CSV, every layout since 2020 (docs/import.md "coinbase"): with
 * or without the preamble lines above the header, the `ID` column or not, the currency in the
 * header (`USD Spot Price at Transaction`, `USD Subtotal`, …), in `Spot Price Currency` or in
 * `Price Currency`; totals `Total (inclusive of fees)` or `Total (inclusive of fees and/or
 * spread)`; amounts plain or as `$1,510.00`, quantities signed or not.
 */
import { dateTimeOf, syntheticHashes } from './fields.js';
import { Columns, collect, csvRows, fail, mapRowStream, requireColumns, tableAfterPreamble, type CsvRow } from './csv.js';
import {
  abs,
  type ExchangeMove,
  type Fiat,
  feeRecord,
  fiatOnly,
  type IncomeWord,
  isFiat,
  minus,
  moveRecord,
  requireExchangeWallet,
  signedAmount,
  times,
} from './exchange-rows.js';
import type { ImportRecord, Importer } from './types.js';

const isHeader = (cells: string[]) => {
  const c = new Columns(cells);
  return c.has('Timestamp', 'Transaction Type', 'Asset', 'Quantity Transacted');
};

/** Types that buy, sell, earn, or move coins in and out; anything else is a bad row (never a guessed direction). */
const BUY = new Set(['buy', 'advanced trade buy', 'advance trade buy']);
const SELL = new Set(['sell', 'advanced trade sell', 'advance trade sell']);
const INCOME: Record<string, IncomeWord> = {
  'rewards income': 'Rewards',
  'reward income': 'Rewards',
  'inflation reward': 'Rewards',
  'coinbase earn': 'Rewards',
  'learning reward': 'Rewards',
  'staking income': 'Staking',
  'interest payout': 'Interest',
};
/** In: from outside (or Coinbase Pro); out: to outside. */
const INFLOW = new Set(['receive', 'deposit', 'exchange withdrawal', 'pro withdrawal']);
const OUTFLOW = new Set(['send', 'withdrawal', 'exchange deposit', 'pro deposit']);
/** Moves between parts of one account (a vault, savings): nothing leaves it. */
const INTERNAL = new Set(['vault withdrawal', 'vault deposit', 'cash to savings', 'savings to cash']);

/** `Bought 0.5 ETH for 1,510.00 USD` (a fiat quote), `… for 1500 USDC on ETH-USDC at 3000 USDC/ETH` (Advanced Trade). */
const TRADE_NOTE = /^(?:Bought|Sold)\s+([\d.,]+)\s+(\S+)\s+for\s+[£€$]?([\d.,]+)\s+(\w+)(?:\s+on\s+\w+-\w+\s+at\s+[£€$]?([\d.,]+)\s+\w+\/\w+)?/i;
/** `Converted 0.5 ETH to 1,500.123 USDC`. */
const CONVERT_NOTE = /^Converted\s+[\d.,]+\s+\S+\s+to\s+([\d.,]+)\s+(\w+)/i;

export const coinbaseImporter: Importer = {
  format: 'coinbase',
  needsWallet: true,
  exchange: true,
  detect({ header, text }) {
    if (header && isHeader(header)) return true;
    // The header below a preamble.
    return /^(?:"?ID"?,)?"?Timestamp"?,"?Transaction Type"?,"?Asset"?,"?Quantity Transacted"?/im.test(text.slice(0, 8192));
  },
  parse(text, ctx) {
    return collect('coinbase', this.stream!(csvRows([text]), ctx));
  },
  stream(records, ctx) {
    requireExchangeWallet('coinbase', ctx);
    const table = tableAfterPreamble(records, isHeader);
    const cols = new Columns(table.header);
    // The currency of the values: a column (2021 on), or the header's prefix (2020: `USD Subtotal`).
    const currencyCol = cols.find('Price Currency', 'Spot Price Currency');
    const prefixed = /^([A-Z]{3}) Spot Price at Transaction$/.exec(table.header.find((h) => /^[A-Z]{3} Spot Price at Transaction$/.test(h)) ?? '');
    const fixedCurrency = prefixed?.[1];
    const p = fixedCurrency ? `${fixedCurrency} ` : '';
    const at = {
      id: cols.find('ID'),
      time: cols.find('Timestamp'),
      type: cols.find('Transaction Type'),
      asset: cols.find('Asset'),
      quantity: cols.find('Quantity Transacted'),
      subtotal: cols.find(`${p}Subtotal`),
      total: cols.find(`${p}Total (inclusive of fees and/or spread)`, `${p}Total (inclusive of fees)`),
      fees: cols.find(`${p}Fees and/or Spread`, `${p}Fees`),
      notes: cols.find('Notes'),
    };
    const missing = [
      ...(at.time < 0 ? ['Timestamp'] : []),
      ...(at.type < 0 ? ['Transaction Type'] : []),
      ...(at.asset < 0 ? ['Asset'] : []),
      ...(at.quantity < 0 ? ['Quantity Transacted'] : []),
      ...(currencyCol < 0 && !fixedCurrency ? ['Price Currency'] : []),
      ...(at.total < 0 ? ['Total (inclusive of fees and/or spread)'] : []),
    ];
    requireColumns(missing, { hint: "Download the transaction history CSV from Coinbase's Statements page." });
    const get = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    const hashOf = syntheticHashes('coinbase');
    return mapRowStream('coinbase', table.rows, ({ line, cells }: CsvRow) => {
      const kind = get(cells, at.type);
      const key = kind.toLowerCase();
      const asset = get(cells, at.asset);
      const quantity = signedAmount(get(cells, at.quantity), 'Quantity Transacted');
      if (quantity === null) fail('Quantity Transacted', 'is empty');
      const amount = abs(quantity);
      const currency = fixedCurrency ?? get(cells, currencyCol);
      const money = (i: number, field: string): Fiat | null => {
        const v = signedAmount(get(cells, i), field);
        return v === null || currency === '' ? null : { amount: abs(v), currency };
      };
      const total = () => money(at.total, 'Total (inclusive of fees and/or spread)');
      const subtotal = () => money(at.subtotal, 'Subtotal');
      const notes = get(cells, at.notes) || null;
      const base = {
        line,
        tx_hash: get(cells, at.id) || hashOf(cells),
        timestamp: dateTimeOf(get(cells, at.time), 'Timestamp'),
        notes,
        field: 'Quantity Transacted',
      };
      const move = (m: Partial<ExchangeMove> & Pick<ExchangeMove, 'direction' | 'type'>): ImportRecord => moveRecord({ ...base, symbol: asset, amount, ...m });
      if (isFiat(asset)) return fiatOnly(kind, asset);
      if (BUY.has(key) || SELL.has(key)) return trade(key, asset, amount, notes, base, total, subtotal);
      if (key === 'convert') {
        const m = CONVERT_NOTE.exec(notes ?? '');
        if (!m) fail('Notes', `a Convert row's notes must say "Converted … to AMOUNT ASSET", got '${notes ?? ''}'`);
        const received = signedAmount(m[1], 'Notes')!;
        const value = total();
        return [
          move({ direction: 'outflow', type: 'swap', fiat: value }),
          moveRecord({ ...base, symbol: m[2]!, amount: received, direction: 'inflow', type: 'swap', fiat: value, field: 'Notes' }),
        ];
      }
      const income = INCOME[key] ?? (key === 'receive' && /coinbase (earn|rewards)/i.test(notes ?? '') ? 'Rewards' : undefined);
      if (income) return [move({ direction: 'inflow', type: 'transfer', fiat: total() ?? subtotal(), income })];
      if (INFLOW.has(key)) return [move({ direction: 'inflow', type: 'transfer' })];
      if (OUTFLOW.has(key)) return [move({ direction: 'outflow', type: 'transfer' })];
      if (INTERNAL.has(key)) return `${kind}: moves within the account`;
      return fail('Transaction Type', `unknown Coinbase transaction type '${kind}'`);
    });
  },
};

type Base = { line: number; tx_hash: string; timestamp: number; notes: string | null; field: string };

/**
 * A buy or sell: for fiat, one row valued at what was paid including fees (a buy) or received
 * after them (a sale, whose Total is net of fees); for a coin (an Advanced Trade on ETH-USDC), the
 * two legs at the Subtotal's value and the fee in the quote coin as a `fee` row.
 */
function trade(
  key: string,
  asset: string,
  amount: string,
  notes: string | null,
  base: Base,
  total: () => Fiat | null,
  subtotal: () => Fiat | null,
): ImportRecord[] {
  const buy = BUY.has(key);
  const m = TRADE_NOTE.exec(notes ?? '');
  const quote = m?.[4];
  if (!m || quote === undefined || isFiat(quote)) {
    return [moveRecord({ ...base, symbol: asset, amount, direction: buy ? 'inflow' : 'outflow', type: 'swap', fiat: total() })];
  }
  const quoted = signedAmount(m[3], 'Notes')!;
  // With a rate, the legs are base × rate and the fee the difference to the amount paid or received.
  const gross = m[5] === undefined ? quoted : times(amount, signedAmount(m[5], 'Notes')!);
  const fee = m[5] === undefined ? '0' : abs(buy ? minus(quoted, gross) : minus(gross, quoted));
  const value = subtotal() ?? total();
  return [
    moveRecord({ ...base, symbol: asset, amount, direction: buy ? 'inflow' : 'outflow', type: 'swap', fiat: value }),
    moveRecord({ ...base, symbol: quote, amount: gross, direction: buy ? 'outflow' : 'inflow', type: 'swap', fiat: value, field: 'Notes' }),
    ...feeRecord({ ...base, symbol: quote, amount: fee, field: 'Notes' }),
  ];
}

/**
 * Gemini's transaction history (docs/import.md "gemini"), CSV or XLSX (an XLSX sheet is read as
 * CSV text first, importers/xlsx.ts): `Date, Time (UTC), Type, Symbol, Specification, …`, then per
 * asset `<A> Amount <A>`, `Fee (<A>) <A>`, `<A> Balance <A>`, then `Trade ID`, `Order ID`, …,
 * `Tx Hash`, `Deposit Destination`, …, `Withdrawal Destination`. A trade is one row (`Buy`/`Sell`
 * of a pair such as `ETHUSD`); transfers are `Credit`/`Debit` rows of one asset. The sheet ends
 * with a totals row that has no date.
 */
import { Columns, collect, csvRows, fail, mapRowStream, requireColumns, tableOf, type CsvRow } from './csv.js';
import { dateTimeOf, syntheticHashes } from './fields.js';
import { abs, feeRecord, fiatOnly, type IncomeWord, isFiat, minus, moveRecord, plus, requireExchangeWallet, signedAmount } from './exchange-rows.js';
import type { ImportRecord, Importer } from './types.js';

const REQUIRED = ['Date', 'Time (UTC)', 'Type', 'Symbol'] as const;

/** Quote assets of Gemini's pairs, longest first (so `ETHUSDT` is ETH/USDT, not ETHU/SDT). */
const QUOTES = ['RLUSD', 'GUSD', 'USDC', 'USDT', 'DAI', 'USD', 'EUR', 'GBP', 'SGD', 'CAD', 'AUD', 'BTC', 'ETH', 'BCH', 'LTC', 'SOL', 'FIL'];

function pairOf(symbol: string): [string, string] {
  const s = symbol.toUpperCase();
  for (const q of QUOTES) if (s.length > q.length && s.endsWith(q)) return [s.slice(0, -q.length), q];
  return fail('Symbol', `not a trading pair Gemini lists: '${symbol}'`);
}

/** A credit's income word from its Specification (`Staking Reward`, `Earn Interest`, `Trading Rewards`), if it is income. */
function incomeOf(spec: string): IncomeWord | undefined {
  if (/staking/i.test(spec)) return 'Staking';
  if (/interest/i.test(spec)) return 'Interest';
  if (/reward/i.test(spec)) return 'Rewards';
  return undefined;
}

/** `12:34:56.789` or Excel's `12:34:56` (or a whole date-time the sheet gave): the time of day. */
function timeOf(text: string): string {
  const m = /(\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?\s*$/.exec(text);
  return m ? m[1]! : fail('Time (UTC)', `not a time of day: '${text}'`);
}

export const geminiImporter: Importer = {
  format: 'gemini',
  needsWallet: true,
  exchange: true,
  detect({ header }) {
    return new Columns(header ?? []).has('Date', 'Time (UTC)', 'Type', 'Symbol', 'Specification');
  },
  parse(text, ctx) {
    return collect('gemini', this.stream!(csvRows([text]), ctx));
  },
  stream(records, ctx) {
    requireExchangeWallet('gemini', ctx);
    const table = tableOf(records);
    const cols = new Columns(table.header);
    requireColumns(
      REQUIRED.filter((c) => cols.find(c) < 0),
      { hint: "Download the transaction history from Gemini's Account > Statements & history page." },
    );
    const at = cols.pick([...REQUIRED, 'Specification', 'Trade ID', 'Tx Hash']);
    const get = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    const amountOf = (cells: string[], asset: string) => {
      const field = `${asset} Amount ${asset}`;
      const i = cols.find(field);
      if (i < 0) fail('Symbol', `the file has no column ${field}`);
      const v = signedAmount(get(cells, i), field);
      return { value: v === null ? '0' : abs(v), field };
    };
    const feeOf = (cells: string[], asset: string) => {
      const field = `Fee (${asset}) ${asset}`;
      const v = signedAmount(get(cells, cols.find(field)), field);
      return { value: v === null ? '0' : abs(v), field };
    };
    const contentHash = syntheticHashes('gemini');
    return mapRowStream('gemini', table.rows, ({ line, cells }: CsvRow): ImportRecord[] | string => {
      const date = get(cells, at.Date);
      if (date === '') return 'the totals row (no date)';
      const day = /^\d{4}-\d{2}-\d{2}/.exec(date)?.[0] ?? fail('Date', `not a date YYYY-MM-DD: '${date}'`);
      const timestamp = dateTimeOf(`${day} ${timeOf(get(cells, at['Time (UTC)']))}`, 'Time (UTC)');
      const kind = get(cells, at.Type);
      const symbol = get(cells, at.Symbol).toUpperCase();
      const spec = get(cells, at.Specification);
      const notes = spec || null;
      const given = get(cells, at['Tx Hash']) || get(cells, at['Trade ID']);
      // Without an id, the hash is of the row's values as read, so the CSV and the XLSX of one history agree.
      const hashOf = (...amounts: string[]) => given || contentHash([String(timestamp), kind, symbol, spec, ...amounts]);
      if (kind === 'Buy' || kind === 'Sell') {
        const buy = kind === 'Buy';
        const [coin, quote] = pairOf(symbol);
        const got = amountOf(cells, coin);
        const paid = amountOf(cells, quote);
        const fee = feeOf(cells, quote);
        const base = { line, tx_hash: hashOf(got.value, paid.value, fee.value), timestamp, notes };
        if (isFiat(quote)) {
          // The quote Amount is before the fee, which Gemini charges on top.
          const value = { amount: buy ? plus(paid.value, fee.value) : minus(paid.value, fee.value), currency: quote };
          return [moveRecord({ ...base, symbol: coin, amount: got.value, direction: buy ? 'inflow' : 'outflow', type: 'swap', fiat: value, field: got.field })];
        }
        return [
          moveRecord({ ...base, symbol: coin, amount: got.value, direction: buy ? 'inflow' : 'outflow', type: 'swap', field: got.field }),
          moveRecord({ ...base, symbol: quote, amount: paid.value, direction: buy ? 'outflow' : 'inflow', type: 'swap', field: paid.field }),
          ...feeRecord({ ...base, symbol: quote, amount: fee.value, field: fee.field }),
        ];
      }
      if (kind === 'Credit' || kind === 'Debit') {
        if (isFiat(symbol)) return fiatOnly(spec || kind, symbol);
        const moved = amountOf(cells, symbol);
        const fee = feeOf(cells, symbol);
        const base = { line, tx_hash: hashOf(moved.value, fee.value), timestamp, notes };
        const income = kind === 'Credit' ? incomeOf(spec) : undefined;
        return [
          moveRecord({
            ...base,
            symbol,
            amount: moved.value,
            direction: kind === 'Credit' ? 'inflow' : 'outflow',
            type: 'transfer',
            income,
            field: moved.field,
          }),
          ...feeRecord({ ...base, symbol, amount: fee.value, field: fee.field }),
        ];
      }
      return fail('Type', `unknown Gemini transaction type '${kind}'`);
    });
  },
};

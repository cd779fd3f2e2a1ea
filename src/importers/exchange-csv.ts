/**
 * txa's own exchange CSV (docs/import.md "exchange-csv"), for any exchange without an importer:
 * `date,type,asset,quantity,fiat_currency,fiat_amount,fee_asset,fee_quantity,trade_id,tx_hash,note`,
 * `type` one of buy, sell, trade_in, trade_out, deposit, withdrawal, income, fee.
 */
import { Columns, collect, csvRows, fail, mapRowStream, requireColumns, tableOf, type CsvRow } from './csv.js';
import { amountOf, dateTimeOf, optionalAmount, syntheticHashes } from './fields.js';
import { type ExchangeMove, feeRecord, type IncomeWord, isFiat, moveRecord, requireExchangeWallet } from './exchange-rows.js';
import type { ImportRecord, Importer } from './types.js';

export const EXCHANGE_CSV_COLUMNS = [
  'date',
  'type',
  'asset',
  'quantity',
  'fiat_currency',
  'fiat_amount',
  'fee_asset',
  'fee_quantity',
  'trade_id',
  'tx_hash',
  'note',
] as const;
const REQUIRED = ['date', 'type', 'asset', 'quantity'] as const;

const TYPES: Record<string, Pick<ExchangeMove, 'direction' | 'type'>> = {
  buy: { direction: 'inflow', type: 'swap' },
  sell: { direction: 'outflow', type: 'swap' },
  trade_in: { direction: 'inflow', type: 'swap' },
  trade_out: { direction: 'outflow', type: 'swap' },
  deposit: { direction: 'inflow', type: 'transfer' },
  withdrawal: { direction: 'outflow', type: 'transfer' },
  income: { direction: 'inflow', type: 'transfer' },
  fee: { direction: 'outflow', type: 'fee' },
};

/** An income row's tag: the note's own word when it begins with one, else `Income`. */
function incomeWord(note: string): IncomeWord {
  if (/^staking/i.test(note)) return 'Staking';
  if (/^rewards?\b/i.test(note)) return 'Rewards';
  if (/^interest/i.test(note)) return 'Interest';
  return 'Income';
}

export const exchangeCsvImporter: Importer = {
  format: 'exchange-csv',
  needsWallet: true,
  exchange: true,
  detect({ header }) {
    return new Columns(header ?? []).has('date', 'type', 'asset', 'quantity', 'fiat_amount', 'trade_id');
  },
  parse(text, ctx) {
    return collect('exchange-csv', this.stream!(csvRows([text]), ctx));
  },
  stream(records, ctx) {
    requireExchangeWallet('exchange-csv', ctx);
    const table = tableOf(records);
    const cols = new Columns(table.header);
    requireColumns(REQUIRED.filter((c) => cols.find(c) < 0));
    const at = cols.pick(EXCHANGE_CSV_COLUMNS);
    const get = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    const hashOf = syntheticHashes('exchange-csv');
    return mapRowStream('exchange-csv', table.rows, ({ line, cells }: CsvRow): ImportRecord[] => {
      const kind = get(cells, at.type).toLowerCase();
      const shape = TYPES[kind];
      if (!shape) fail('type', `must be one of ${Object.keys(TYPES).join(', ')}, got '${get(cells, at.type)}'`);
      const asset = get(cells, at.asset);
      if (isFiat(asset)) fail('asset', `'${asset}' is a fiat currency; a row moves a coin (fiat goes in fiat_currency and fiat_amount)`);
      const amount = amountOf(get(cells, at.quantity), 'quantity');
      const fiatAmount = optionalAmount(get(cells, at.fiat_amount), 'fiat_amount');
      const currency = get(cells, at.fiat_currency).toUpperCase();
      if (fiatAmount !== null && !/^[A-Z]{3}$/.test(currency)) fail('fiat_currency', `must be a three-letter currency code, got '${currency}'`);
      if ((kind === 'buy' || kind === 'sell') && fiatAmount === null) fail('fiat_amount', `a ${kind} needs what was ${kind === 'buy' ? 'paid' : 'received'}`);
      const tradeId = get(cells, at.trade_id);
      if ((kind === 'trade_in' || kind === 'trade_out') && tradeId === '') fail('trade_id', 'the two rows of a trade share a trade_id');
      const note = get(cells, at.note);
      const base = {
        line,
        tx_hash: get(cells, at.tx_hash) || tradeId || hashOf(cells),
        timestamp: dateTimeOf(get(cells, at.date), 'date'),
        notes: note || null,
      };
      const records = [
        moveRecord({
          ...base,
          ...shape,
          symbol: asset,
          amount,
          fiat: fiatAmount === null ? null : { amount: fiatAmount, currency },
          income: kind === 'income' ? incomeWord(note) : undefined,
          field: 'quantity',
        }),
      ];
      const feeQuantity = optionalAmount(get(cells, at.fee_quantity), 'fee_quantity');
      const feeAsset = get(cells, at.fee_asset);
      // A fee in fiat is part of fiat_amount (what was paid, or received after it): no row of its own.
      if (feeQuantity !== null && feeAsset !== '' && !isFiat(feeAsset))
        records.push(...feeRecord({ ...base, symbol: feeAsset, amount: feeQuantity, field: 'fee_quantity' }));
      else if (feeQuantity !== null && feeAsset === '') fail('fee_asset', 'names the coin fee_quantity is in');
      return records;
    });
  },
};

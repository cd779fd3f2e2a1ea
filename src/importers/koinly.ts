/**
 * Koinly "Universal" CSV: each row sends, receives, or both (a trade), with an optional fee in its
 * own currency. A swap may also be split into a send row and a receive row sharing a TxHash; both
 * halves are then typed `swap`. The file names no wallet (`--wallet`) and no addresses.
 */
import { TxaError } from '../core/errors.js';
import type { ImportRecord, Importer } from './types.js';
import { Columns, fail, mapRows, readCsv, requireColumns, type CsvRow } from './csv.js';
import { dateTimeOf, optionalAmount, syntheticHash } from './fields.js';
import { tokenBySymbol } from './tokens.js';
import { tagsOf } from './transaction-fields.js';

const REQUIRED = ['Date', 'Sent Amount', 'Sent Currency', 'Received Amount', 'Received Currency'] as const;
const OPTIONAL = ['Fee Amount', 'Fee Currency', 'Net Worth Amount', 'Net Worth Currency', 'Label', 'Description', 'TxHash'] as const;

/** Koinly labels that are income or expense in themselves; others become neutral tags. */
const INCOME_LABELS = new Set(['airdrop', 'fork', 'mining', 'reward', 'income', 'lending interest', 'other income', 'staking', 'realized gain']);
const EXPENSE_LABELS = new Set(['cost', 'margin fee', 'loan fee', 'lost', 'stolen', 'gift']);

function tagOfLabel(label: string): ImportRecord['tags'] {
  if (label === '') return undefined;
  const key = label.toLowerCase();
  return tagsOf([{ name: label, type: INCOME_LABELS.has(key) ? 'income' : EXPENSE_LABELS.has(key) ? 'expense' : 'neutral' }], () => 'Label');
}

export const koinlyImporter: Importer = {
  format: 'koinly',
  needsWallet: true,
  detect({ header }) {
    return new Columns(header ?? []).has('Sent Amount', 'Received Amount', 'Date');
  },
  parse(text, ctx) {
    const wallet = ctx.wallet;
    if (!wallet) throw new TxaError('USAGE_ERROR', 'Koinly files name no wallet: pass --wallet ID', { field: 'wallet' });
    const table = readCsv(text);
    const cols = new Columns(table.header);
    requireColumns(REQUIRED.filter((c) => cols.find(c) < 0));
    const at = cols.pick([...REQUIRED, ...OPTIONAL]);
    const [date, sent, sentCur, received, receivedCur] = [at.Date, at['Sent Amount'], at['Sent Currency'], at['Received Amount'], at['Received Currency']];
    const [fee, feeCur, worth, worthCur, label, description, hash] = [
      at['Fee Amount'],
      at['Fee Currency'],
      at['Net Worth Amount'],
      at['Net Worth Currency'],
      at.Label,
      at.Description,
      at.TxHash,
    ];
    const get = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    // Hashes with both a sent and a received side somewhere in the file are swaps.
    const sides = new Map<string, Set<string>>();
    for (const { cells } of table.rows) {
      const h = get(cells, hash);
      if (h === '') continue;
      const set = sides.get(h) ?? new Set<string>();
      if (get(cells, sent) !== '') set.add('sent');
      if (get(cells, received) !== '') set.add('received');
      sides.set(h, set);
    }
    return mapRows('koinly', table.rows, ({ line, cells }: CsvRow) => {
      const sentAmount = optionalAmount(cells[sent], 'Sent Amount');
      const receivedAmount = optionalAmount(cells[received], 'Received Amount');
      if (sentAmount === null && receivedAmount === null) fail('Sent Amount', 'a row must send or receive something');
      const givenHash = get(cells, hash);
      const tx_hash = givenHash || syntheticHash('koinly', cells);
      const type = sentAmount !== null && receivedAmount !== null ? 'swap' : sides.get(givenHash)?.size === 2 ? 'swap' : 'transfer';
      const worthAmount = optionalAmount(cells[worth], 'Net Worth Amount');
      // Net Worth values the row only when it is in the workspace's currency.
      const fiat_value = worthAmount !== null && get(cells, worthCur).toUpperCase() === ctx.baseCurrency?.toUpperCase() ? worthAmount : null;
      const base = { line, tx_hash, timestamp: dateTimeOf(cells[date], 'Date'), notes: get(cells, description) || null, tags: tagOfLabel(get(cells, label)) };
      const side = (amount: string, currencyCol: number, field: string, direction: ImportRecord['direction']): ImportRecord => {
        const currency = get(cells, currencyCol);
        if (currency === '') fail(field, 'is empty');
        return {
          ...base,
          from_address: direction === 'outflow' ? wallet.address : '',
          to_address: direction === 'inflow' ? wallet.address : '',
          token: tokenBySymbol(wallet.chain, currency, [amount], field),
          amount,
          fiat_value,
          direction,
          type,
        };
      };
      const records: ImportRecord[] = [];
      if (sentAmount !== null) records.push(side(sentAmount, sentCur, 'Sent Currency', 'outflow'));
      if (receivedAmount !== null) records.push(side(receivedAmount, receivedCur, 'Received Currency', 'inflow'));
      const feeAmount = optionalAmount(cells[fee], 'Fee Amount');
      if (feeAmount !== null && feeAmount !== '0') {
        records.push({ ...side(feeAmount, feeCur, 'Fee Currency', 'outflow'), fiat_value: null, type: 'fee' });
      }
      return records;
    });
  },
};

/**
 * This tool's CSV export (docs/exports.md) read back: the default columns (any subset holding the
 * ones a transaction needs, in any order, with or without the `group` column), tags joined by
 * `; `, the CSV-injection quote undone, and the trailing summary block (`Total inflow`, …) ignored.
 * The file names wallets by label: they must exist in the workspace, or `--wallet` picks one.
 */
import { CSV_COLUMNS } from '../core/export-values.js';
import type { ImportRecord, Importer } from './types.js';
import { Columns, fail, mapRows, readCsv, requireColumns, type CsvRow } from './csv.js';
import { amountOf, dateTimeOf, optionalAmount } from './fields.js';
import { tokenBySymbol } from './tokens.js';
import { chainOf, directionOf, tagsOf, typeOf } from './transaction-fields.js';

const REQUIRED = ['date', 'tx_hash', 'token', 'amount', 'direction'];
const SUMMARY_LABELS = new Set(['Total inflow', 'Total outflow', 'Net flow', 'Transaction count']);

/** The exporter prefixes `'` to text cells that start like a formula; take it off again. */
function unescapeCell(text: string | undefined): string {
  const t = (text ?? '').trim();
  return /^'[=+\-@\t\r]/.test(t) ? t.slice(1) : t;
}

export const txaCsvImporter: Importer = {
  format: 'csv',
  detect({ header }) {
    return new Columns(header ?? []).has('tx_hash', 'amount', 'direction');
  },
  parse(text, ctx) {
    const table = readCsv(text);
    const cols = new Columns(table.header);
    requireColumns(REQUIRED.filter((c) => cols.find(c) < 0));
    const at = Object.fromEntries(CSV_COLUMNS.map((c) => [c, cols.find(c)])) as Record<(typeof CSV_COLUMNS)[number], number>;
    const get = (cells: string[], i: number) => (i >= 0 ? unescapeCell(cells[i]) : '');
    const end = table.rows.findIndex(({ cells }) => SUMMARY_LABELS.has((cells[0] ?? '').trim()) && get(cells, at.tx_hash) === '');
    const rows = end < 0 ? table.rows : table.rows.slice(0, end);
    return mapRows('csv', rows, ({ line, cells }: CsvRow): ImportRecord[] => {
      const tx_hash = get(cells, at.tx_hash);
      if (tx_hash === '') fail('tx_hash', 'is empty');
      const chain = chainOf(get(cells, at.chain)) ?? ctx.wallet?.chain;
      if (!chain) fail('chain', 'is required unless --wallet is given');
      const amount = amountOf(cells[at.amount], 'amount');
      const direction = directionOf(get(cells, at.direction));
      const from_address = get(cells, at.from_address);
      const to_address = get(cells, at.to_address);
      const label = get(cells, at.wallet_label);
      const tagNames = get(cells, at.tags)
        .split(';')
        .map((t) => t.trim())
        .filter(Boolean);
      return [
        {
          line,
          wallet: label ? { label, chain } : undefined,
          tx_hash,
          from_address,
          to_address,
          token: tokenBySymbol(chain, get(cells, at.token) || fail('token', 'is empty'), [amount], 'amount'),
          amount,
          fiat_value: optionalAmount(cells[at.fiat_value], 'fiat_value'),
          direction,
          type: typeOf(get(cells, at.type)),
          timestamp: dateTimeOf(get(cells, at.date), 'date'),
          notes: get(cells, at.notes) || null,
          tags: tagNames.length ? tagsOf(tagNames.map((name) => ({ name }))) : undefined,
        },
      ];
    });
  },
};

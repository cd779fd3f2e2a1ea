/**
 * `txa lots allocate --specific FILE` (docs/lots.md "A hand-made allocation"): a CSV with the
 * header `wallet,lot,quantity` (any order, any case; other columns ignored), one line per lot or
 * part of a lot a wallet receives. Read here into the request's `lines`, each with its line of
 * the file, so the checks the backend makes name the line. What the file itself gets wrong (a
 * column missing, a quantity that is no number, a cell left empty) is refused here, with the same
 * code and field.
 */
import { readFileSync } from 'node:fs';
import { TxaError } from '../core/errors.js';
import { normalizeDecimal } from '../core/money.js';
import { Columns, readCsv } from '../importers/csv.js';
import { unreadableFile } from '../core/errno.js';

export interface AllocationFileLine {
  wallet: string;
  lot: string;
  quantity: string;
  /** The file's line (the header is line 1). */
  line: number;
}

const COLUMNS = ['wallet', 'lot', 'quantity'] as const;
/** A hand-made allocation has a line per lot and wallet; more than this is no allocation file. */
const MAX_BYTES = 64 * 1024 * 1024;

export function readAllocationFile(path: string): AllocationFileLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, err, 'specific');
  }
  if (text.length > MAX_BYTES) throw new TxaError('INVALID_ALLOCATION', `${path} is larger than 64 MB`, { field: 'specific' });
  let table: ReturnType<typeof readCsv>;
  try {
    table = readCsv(text);
  } catch (err) {
    throw new TxaError('INVALID_ALLOCATION', (err as Error).message, { field: 'specific' });
  }
  const cols = new Columns(table.header);
  const missing = COLUMNS.filter((c) => cols.find(c) < 0);
  if (missing.length > 0) {
    throw new TxaError('INVALID_ALLOCATION', `line 1: the header lacks ${missing.join(', ')}; it must name the columns wallet,lot,quantity`, {
      field: 'line 1',
    });
  }
  const at = cols.pick(COLUMNS);
  const lines = table.rows.map(({ line, cells }) => {
    const cell = (c: (typeof COLUMNS)[number]) => (cells[at[c]] ?? '').trim();
    const field = `line ${line}`;
    for (const c of COLUMNS) if (cell(c) === '') throw new TxaError('INVALID_ALLOCATION', `${field}: ${c} is empty`, { field });
    const quantity = normalizeDecimal(cell('quantity'));
    if (quantity === null || quantity.startsWith('-') || quantity === '0') {
      throw new TxaError('INVALID_ALLOCATION', `${field}: quantity must be a positive number, got '${cell('quantity')}'`, { field });
    }
    return { wallet: cell('wallet'), lot: cell('lot'), quantity, line };
  });
  if (lines.length === 0) throw new TxaError('INVALID_ALLOCATION', `${path} has no lines after its header`, { field: 'specific' });
  return lines;
}

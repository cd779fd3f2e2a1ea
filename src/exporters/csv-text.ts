/**
 * CSV text (CONTRACT §6): RFC 4180 quoting, the OWASP formula prefix, and the conversion of raw
 * rows (store/raw-rows.ts, as store/csv-rows.ts reads them) into CSV lines. The export file worker
 * loads it without the ledger.
 */
import { CELL_SEPARATOR, NotExact, ROW_END, rowsOf } from '../store/raw-rows.js';

const FORMULA_CHARS = '=+\\-@\\t\\r＝＋－＠';
const FORMULA_START = new RegExp(`^[${FORMULA_CHARS}]`);
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;
/** A raw cell that goes into the file as it is: no quotes needed, no formula prefix. */
const VERBATIM_CELL = `(?:[^",\\r\\n${CELL_SEPARATOR}${FORMULA_CHARS}][^",\\r\\n${CELL_SEPARATOR}]*)?`;

/** One cell: a formula-like text gets a leading `'` (numbers stay numbers), then RFC 4180 quoting. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A row without its line end. A lone empty cell is written as "" so the row is not read as a blank line and skipped. */
function csvRow(cells: string[]): string {
  return cells.length === 1 && cells[0] === '' ? '""' : cells.map(csvCell).join(',');
}

export function csvLine(cells: string[]): string {
  return `${csvRow(cells)}\r\n`;
}

/** The raw form of a row of cells (cells must not hold the separators). */
export function rawRow(cells: string[]): string {
  return cells.join(CELL_SEPARATOR) + ROW_END;
}

/**
 * CSV lines of raw rows of `width` cells each (text ending in ROW_END). Most rows need no
 * escaping at all: one regular expression checks the cell count and every cell, then the
 * separators become commas; the others are escaped cell by cell.
 */
export function csvFromRaw(width: number): (raw: string) => string {
  const verbatim = new RegExp(`^${VERBATIM_CELL}(?:${CELL_SEPARATOR}${VERBATIM_CELL}){${width - 1}}$`);
  return (raw) => {
    const rows = rowsOf(raw);
    const lines = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      // A lone empty cell is left to csvLine, which quotes it.
      if (verbatim.test(row) && (width > 1 || row !== '')) lines[i] = row.replaceAll(CELL_SEPARATOR, ',');
      else {
        const cells = row.split(CELL_SEPARATOR);
        if (cells.length !== width) throw new NotExact();
        lines[i] = csvRow(cells);
      }
    }
    return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
  };
}

/**
 * CSV text (docs/exports.md): RFC 4180 quoting, the OWASP formula prefix, and the conversion of raw
 * rows (store/raw-rows.ts, as store/csv-rows.ts reads them) into CSV lines. The export file worker
 * loads it without the ledger.
 */
import { NotExact, NUMBER_MARK, ROW_END, ROW_MARK, TEXT_CELL, TEXT_MARK } from '../store/raw-rows.js';

/** The characters a spreadsheet reads a formula from at a cell's start. */
const FORMULA_CHARS = '=+-@\t\r＝＋－＠';
/** Their UTF-16 codes (each one unit): a cell's first is looked up, cheaper than a regular expression per cell. */
const FORMULA_CODES = new Set([...FORMULA_CHARS].map((c) => c.charCodeAt(0)));
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;
/** The marks raw rows carry (store/raw-rows.ts), removed as they become CSV. */
const MARKS = new RegExp(`[${NUMBER_MARK}${ROW_MARK}${TEXT_MARK}]`, 'g');
/** Splits a raw row's cells. */
const CELL_SPLIT = new RegExp(`,[${NUMBER_MARK}${TEXT_MARK}]`);
/**
 * Where raw text needs more than its marks removed: a quote; a CR or LF that is not ROW_END's; a
 * comma that is not a separator; a formula character at the start of a row or of a text cell (a
 * CR there is caught by the CR rule, and a cell that is empty before ROW_END is not one).
 */
const NEEDS_WORK = new RegExp(
  `"|\\r(?!\\n${ROW_MARK})|\\n(?!${ROW_MARK})|,(?![${NUMBER_MARK}${TEXT_MARK}])|(?:^|[${ROW_MARK}${TEXT_MARK}])[${FORMULA_CHARS.replace('\r', '').replace('-', '\\-')}]`,
  'g',
);

/** One cell: a formula-like text gets a leading `'` (numbers stay numbers), then RFC 4180 quoting. */
export function csvCell(value: string): string {
  const safe = FORMULA_CODES.has(value.charCodeAt(0)) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A row without its line end. A lone empty cell is written as "" so the row is not read as a blank line and skipped. */
function csvRow(cells: string[]): string {
  return cells.length === 1 && cells[0] === '' ? '""' : cells.map(csvCell).join(',');
}

export function csvLine(cells: string[]): string {
  return `${csvRow(cells)}\r\n`;
}

/** The raw form of a row of text cells (cells must not hold the marks). */
export function rawRow(cells: string[]): string {
  return cells.join(TEXT_CELL) + ROW_END;
}

/**
 * CSV lines of `rows` raw rows of `width` cells each. One regular expression finds the rows that
 * need escaping, which are escaped cell by cell; the text between them only loses its marks, and
 * there must be exactly `width` marks a row, else a cell held one (NotExact).
 */
export function csvFromRaw(width: number): (raw: string, rows: number) => string {
  const escapeRow = (row: string) => {
    const cells = row.endsWith(ROW_END) ? row.slice(0, -ROW_END.length).split(CELL_SPLIT) : [];
    if (cells.length !== width) throw new NotExact();
    return csvLine(cells);
  };
  return (raw, rows) => {
    let out = '';
    let marks = 0;
    let escaped = 0;
    const plain = (text: string) => {
      const line = text.replace(MARKS, '');
      marks += text.length - line.length;
      return line;
    };
    let from = 0;
    NEEDS_WORK.lastIndex = 0;
    for (let m = NEEDS_WORK.exec(raw); m; m = NEEDS_WORK.exec(raw)) {
      const at = m.index + m[0].length - 1;
      const start = raw.lastIndexOf(ROW_MARK, at - 1) + 1;
      const end = raw.indexOf(ROW_MARK, at) + 1;
      if (end === 0) throw new NotExact();
      out += plain(raw.slice(from, start)) + escapeRow(raw.slice(start, end));
      escaped++;
      from = end;
      // From the row's own mark: the next row may start with a formula character.
      NEEDS_WORK.lastIndex = end - 1;
    }
    out += plain(raw.slice(from));
    if (marks !== (rows - escaped) * width) throw new NotExact();
    return out;
  };
}

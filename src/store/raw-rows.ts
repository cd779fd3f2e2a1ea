/**
 * The text SQLite hands the fast CSV writer (csv-rows.ts): each row already a CSV line, its cells
 * separated by a comma and a mark, and ended by CRLF and a mark. The writer (exporters/csv-text.ts)
 * checks a whole chunk with one regular expression (a quote, a line break or comma inside a cell, a
 * formula character at the start of a text cell), escapes only the rows it finds, and removes
 * the marks from the rest: for a chunk of n rows exactly n × width marks. A cell that holds a mark
 * (or SQL's NOT_EXACT, an extra separator) makes that count or a row's cell count wrong, which the
 * writer reports (NotExact) and answers by writing the file from Transaction objects instead.
 */

/** Marks a cell whose text the writer must check for a formula prefix. */
export const TEXT_MARK = '\x1f';
/** Marks a cell SQL printed as a plain number, which never takes the formula prefix. */
export const NUMBER_MARK = '\x1d';
/** Marks the end of a row (after its CRLF; cells may hold line breaks). */
export const ROW_MARK = '\x1e';

/** Before each cell but the first. */
export const TEXT_CELL = `,${TEXT_MARK}`;
export const NUMBER_CELL = `,${NUMBER_MARK}`;
export const ROW_END = `\r\n${ROW_MARK}`;

/** Thrown when raw rows do not have the expected number of cells: a cell held a mark, or SQL marked a value it cannot print. */
export class NotExact extends Error {
  constructor() {
    super('a raw export row does not have the expected number of cells');
  }
}

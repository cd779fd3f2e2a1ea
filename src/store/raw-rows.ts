/**
 * The text SQLite hands the fast CSV writer (csv-rows.ts): each row's cells joined by
 * CELL_SEPARATOR, rows ended by ROW_END. Control characters text rarely holds; a cell that does
 * hold one makes its row's cell count wrong, which the writer detects (NotExact) and answers by
 * writing the file from Transaction objects instead.
 */

export const CELL_SEPARATOR = '\x1f';
/** Ends a raw row (cells may hold line breaks, so CRLF cannot). */
export const ROW_END = '\x1e';

/** Thrown when a raw row does not have the expected number of cells: a cell held a separator, or SQL marked a value it cannot print. */
export class NotExact extends Error {
  constructor() {
    super('a raw export row does not have the expected number of cells');
  }
}

/** The rows of a chunk of whole raw rows. */
export function rowsOf(chunk: string): string[] {
  const rows = chunk.split(ROW_END);
  rows.pop();
  return rows;
}

/**
 * A small CSV table a user loads (`txa rates import`, `txa prices import`): all rows or, when any
 * row is bad, none — IMPORT_FAILED names the first bad row and lists up to 100 of them, with
 * `error_count`, as the transaction import does.
 */
import { readFileSync } from 'node:fs';
import { TxaError } from '../core/errors.js';
import type { RowError } from '../importers/types.js';
import { unreadableFile } from '../core/errno.js';

export type CsvParse = typeof import('csv-parse/sync').parse;

const MAX_ERRORS_LISTED = 100;

export async function readTableFile<T>(path: string, parseRows: (text: string, parse: CsvParse) => { rows: T[]; errors: RowError[] }): Promise<T[]> {
  const { parse } = await import('csv-parse/sync');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadableFile(path, err, 'file');
  }
  let parsed: { rows: T[]; errors: RowError[] };
  try {
    parsed = parseRows(text, parse);
  } catch (err) {
    throw new TxaError('IMPORT_FAILED', `${path} is not a readable CSV file: ${(err as Error).message}`, { field: 'file' });
  }
  const { rows, errors } = parsed;
  if (errors.length) {
    const first = errors[0]!;
    throw new TxaError(
      'IMPORT_FAILED',
      `${errors.length} bad row(s) in ${path}; nothing was imported (first: line ${first.line}, ${first.field}: ${first.reason})`,
      {
        field: first.field,
        extra: { errors: errors.slice(0, MAX_ERRORS_LISTED), error_count: errors.length },
      },
    );
  }
  return rows;
}

/**
 * XLSX files (Gemini's transaction history download) read as CSV text, so every importer and the
 * format detection see a sheet as they see the CSV of it (docs/import.md "XLSX"). The workbook is
 * read by read-excel-file (a maintained reader that needs no native code; numbers are kept as the
 * exact text the file stores, never as binary floats). Only the first sheet is read.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { TxaError } from '../core/errors.js';
import { MAX_IMPORT_BYTES } from './read-file.js';

/** Whether the file is a regular file and a ZIP container (an XLSX workbook is one): its first bytes are `PK\x03\x04`. */
export function isXlsx(path: string): boolean {
  let fd: number | undefined;
  try {
    // Only a regular file: reading the head of a pipe (`/dev/stdin`) would take those bytes from the import.
    if (!statSync(path).isFile()) return false;
    fd = openSync(path, 'r');
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A cell as CSV text: a date cell as `YYYY-MM-DD` (midnight), a time cell (Excel's day 0,
 * 1899-12-30) as `HH:MM:SS.mmm`, any other date-time as `YYYY-MM-DD HH:MM:SS`, all UTC as Excel
 * stores them; numbers as the file's own digits.
 */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const time = `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}`;
    if (v.getUTCFullYear() === 1899) return `${time}.${pad(v.getUTCMilliseconds(), 3)}`;
    return time === '00:00:00' && v.getUTCMilliseconds() === 0 ? day : `${day} ${time}`;
  }
  return String(v);
}

const quoted = (s: string) => (/[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s);

/** The first sheet of an XLSX file as CSV text, with the SHA-256 of the file's bytes. */
export async function xlsxAsCsv(path: string): Promise<{ text: string; sha256: string }> {
  const size = statSync(path).size;
  if (size > MAX_IMPORT_BYTES) {
    throw new TxaError('IMPORT_FAILED', `the file is larger than the import limit (${MAX_IMPORT_BYTES} bytes)`, { field: 'file' });
  }
  const bytes = readFileSync(path);
  const { default: readXlsxFile } = await import('read-excel-file/node');
  let sheets: { sheet: string; data: unknown[][] }[];
  try {
    sheets = (await readXlsxFile(bytes, { parseNumber: (s: string) => s })) as unknown as typeof sheets;
  } catch (err) {
    throw new TxaError('IMPORT_FAILED', `the file is a ZIP archive but not a readable XLSX workbook: ${(err as Error).message}`, { field: 'file', cause: err });
  }
  const rows = sheets[0]?.data ?? [];
  const text = rows.map((row) => row.map((v) => quoted(cellText(v))).join(',')).join('\n');
  return { text, sha256: createHash('sha256').update(bytes).digest('hex') };
}

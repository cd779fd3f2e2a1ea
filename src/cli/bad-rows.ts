/**
 * The rows a refused import names (`IMPORT_FAILED`'s `error.errors`, or the rows an import
 * skipped), listed on stderr the same way by `txa import` and `txa rates import`.
 */
import { TxaError } from '../core/errors.js';
import { terminalSafe, type Output } from './output.js';

export interface BadRow {
  line: number;
  field?: string;
  reason: string;
}

/** Rows listed before "… and N more". */
const LISTED = 20;

/**
 * One stderr line per row (`  line 12, amount: not a number`), the first 20, then a count of the
 * rest (of `total`, more than the rows given when the engine listed only the first ones); a
 * reason may quote the file.
 */
export function listRows(out: Output, rows: BadRow[], total = rows.length): void {
  for (const r of rows.slice(0, LISTED)) out.stderr.write(`${terminalSafe(`  line ${r.line}${r.field ? `, ${r.field}` : ''}: ${r.reason}`)}\n`);
  if (total > LISTED) out.stderr.write(`  … and ${total - LISTED} more\n`);
}

/**
 * A refused import in human mode: the error line first, then its bad rows, and the exit code.
 * False when `err` names no rows or the output is --json (the body carries them): rethrow it.
 */
export function reportBadRows(out: Output, err: unknown): boolean {
  const rows = err instanceof TxaError ? (err.extra?.errors as BadRow[] | undefined) : undefined;
  if (!rows || out.json) return false;
  out.error(err as TxaError);
  listRows(out, rows, (err as TxaError).extra?.error_count as number | undefined);
  process.exitCode = (err as TxaError).exitCode;
  return true;
}

/**
 * A file imported all rows or none (`prices import`, `rates import`): its body with `--json`, else
 * `imported N <noun>`; refused, its bad rows listed as reportBadRows lists them.
 */
export async function reportAllOrNone(out: Output, noun: string, load: () => Promise<{ imported: number }>): Promise<void> {
  try {
    const res = await load();
    if (out.json) out.body({ success: true, data: res });
    else out.line(`imported ${res.imported} ${noun}`);
  } catch (err) {
    if (reportBadRows(out, err)) return;
    throw err;
  }
}

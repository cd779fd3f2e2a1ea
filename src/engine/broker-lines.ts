/**
 * `txa import FILE --format 1099da --wallet ID` (docs/import.md "1099-DA"): a broker's Form
 * 1099-DA lines, CSV `date_sold,date_acquired,asset,units,proceeds,cost_basis,basis_reported`,
 * into the wallet's broker lines. All lines or none (IMPORT_FAILED names the line and field); a
 * re-import replaces the wallet's lines of the years the file holds, in one transaction.
 */
import { basename } from 'node:path';
import { nowIso } from '../core/clock.js';
import { parseDay } from '../core/dates.js';
import { decimalToCents, normalizeDecimal } from '../core/money.js';
import type { RowError } from '../importers/types.js';
import { replaceBrokerLines, type NewBrokerLine } from '../store/broker-lines.js';
import type { Engine } from './engine.js';
import { readTableFile, type CsvParse } from './table-file.js';
import { requireWallet } from './wallets.js';
import type { WalletRow } from '../store/ledger.js';
import { TxaError } from '../core/errors.js';

export const BROKER_COLUMNS = ['date_sold', 'date_acquired', 'asset', 'units', 'proceeds', 'cost_basis', 'basis_reported'] as const;

const YES = new Set(['true', 'yes', 'y', '1']);
const NO = new Set(['false', 'no', 'n', '0']);

/** `YYYY-MM-DD`, or the form's own `MM/DD/YYYY`, as `YYYY-MM-DD`; null when neither. */
function dayText(text: string): string | null {
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const day = us ? `${us[3]}-${us[1]}-${us[2]}` : text;
  return parseDay(day) === null ? null : day;
}

/** Money of a line: a number ≥ 0 with at most 2 decimals' worth kept (rounded half to even). */
function cents(text: string): bigint | null {
  const canonical = normalizeDecimal(text);
  if (canonical === null || canonical.startsWith('-')) return null;
  const c = decimalToCents(canonical);
  return c === null ? null : BigInt(c);
}

export function parseBrokerLines(text: string, parse: CsvParse): { rows: NewBrokerLine[]; errors: RowError[] } {
  const records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as {
    record: string[];
    info: { lines: number };
  }[];
  const errors: RowError[] = [];
  const rows: NewBrokerLine[] = [];
  const head = records[0]?.record.map((h) => h.toLowerCase()) ?? [];
  const at = Object.fromEntries(BROKER_COLUMNS.map((c) => [c, head.indexOf(c)])) as Record<(typeof BROKER_COLUMNS)[number], number>;
  for (const c of BROKER_COLUMNS) {
    if (at[c] < 0) errors.push({ line: 1, field: c, reason: `the header must name the columns ${BROKER_COLUMNS.join(', ')}` });
  }
  if (errors.length) return { rows, errors };
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    const cell = (c: (typeof BROKER_COLUMNS)[number]) => record[at[c]] ?? '';
    const bad = (field: string, reason: string) => errors.push({ line, field, reason });
    const sold = dayText(cell('date_sold'));
    const acquiredText = cell('date_acquired');
    const acquired = acquiredText === '' ? null : dayText(acquiredText);
    const units = normalizeDecimal(cell('units'));
    const proceeds = cents(cell('proceeds'));
    const basisText = cell('cost_basis');
    const basis = basisText === '' ? null : cents(basisText);
    const reported = cell('basis_reported').toLowerCase();
    if (sold === null) bad('date_sold', `'${cell('date_sold')}' is not a date YYYY-MM-DD or MM/DD/YYYY`);
    else if (acquiredText !== '' && acquired === null) bad('date_acquired', `'${acquiredText}' is not a date YYYY-MM-DD or MM/DD/YYYY (or empty)`);
    else if (cell('asset') === '') bad('asset', 'the asset is empty');
    else if (units === null || units.startsWith('-') || /^0(\.0*)?$/.test(units)) bad('units', `'${cell('units')}' is not a positive number`);
    else if (proceeds === null) bad('proceeds', `'${cell('proceeds')}' is not a number ≥ 0`);
    else if (basisText !== '' && basis === null) bad('cost_basis', `'${basisText}' is not a number ≥ 0 (or empty)`);
    else if (!YES.has(reported) && !NO.has(reported)) bad('basis_reported', `'${cell('basis_reported')}' is not true/false or yes/no`);
    else {
      rows.push({
        line,
        date_sold: sold,
        date_acquired: acquired,
        asset: cell('asset').toUpperCase(),
        units,
        proceeds_cents: proceeds,
        cost_basis_cents: basis,
        basis_reported: YES.has(reported),
      });
    }
  }
  return { rows, errors };
}

/**
 * A 1099-DA is a broker's statement of the account it keeps for its customer: it belongs to an
 * exchange wallet. An address wallet is self-custody, which no broker reports (Form 8949 boxes its
 * disposals C/F, I/L whatever lines say: docs/reports.md), so lines there would be matched and
 * reconciled against sales no broker made.
 */
function refuseSelfCustody(w: WalletRow): void {
  if (w.kind === 'exchange') return;
  throw new TxaError(
    'INVALID_FIELD',
    `--wallet-id ${w.id} is an address wallet (self-custody); a 1099-DA is a broker's statement of an account it keeps, imported into that exchange wallet`,
    {
      field: 'wallet',
      hint: "Add the broker's account (txa wallet add --exchange coinbase|kraken|binance|gemini|other --label NAME) and import into it: txa import FILE --format 1099da --wallet-id ID",
    },
  );
}

export interface BrokerImport {
  format: '1099da';
  wallet_id: string;
  imported: number;
  /** Lines of the same wallet and years the file replaced. */
  replaced: number;
  years: number[];
  dry_run: boolean;
}

export async function importBrokerLines(engine: Engine, workspaceId: string, walletId: string, path: string, dryRun = false): Promise<BrokerImport> {
  engine.workspace(workspaceId);
  refuseSelfCustody(requireWallet(engine, workspaceId, walletId));
  const lines = await readTableFile(path, parseBrokerLines);
  const years = [...new Set(lines.map((l) => Number(l.date_sold.slice(0, 4))))].sort();
  const base = { format: '1099da' as const, wallet_id: walletId, imported: lines.length, years, dry_run: dryRun };
  if (dryRun) return { ...base, replaced: 0 };
  const { replaced } = engine.write(() => replaceBrokerLines(engine.db, workspaceId, walletId, lines, basename(path), nowIso()));
  return { ...base, replaced };
}

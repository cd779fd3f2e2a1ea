/** How values read in the reports: exact figures with thousands separators, ISO dates in UTC. */
import { centsToString, decimalToCents, fromBaseUnits } from '../../core/money.js';
import type { ReportType } from '../../core/export-values.js';
import type { ExportJob } from '../types.js';
import { jurisdictionTitle } from './jurisdiction-layouts.js';

/** Thousands separators on the integer part of a plain decimal (`-1234567.5` → `-1,234,567.5`). */
export function groupDigits(decimal: string): string {
  const negative = decimal.startsWith('-');
  const [int = '0', frac] = (negative ? decimal.slice(1) : decimal).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

/** Integer cents → `1,234.56`. */
export function money(cents: number | bigint): string {
  return groupDigits(centsToString(cents));
}

/** A transaction's fiat value (API number) as exact integer cents; null stays null. */
export function centsOf(value: number | null): number | null {
  return value === null ? null : decimalToCents(String(value));
}

/** Fiat value for a cell; a missing price is shown as a dash, never as 0.00. */
export function fiat(value: number | null): string {
  const cents = centsOf(value);
  return cents === null ? '—' : money(cents);
}

/** Base units → grouped decimal token amount. */
export function quantity(units: bigint, decimals: number): string {
  return groupDigits(fromBaseUnits(units, decimals));
}

export function shortHash(hash: string): string {
  return hash.length > 14 ? `${hash.slice(0, 8)}…${hash.slice(-4)}` : hash;
}

/** `2024-03-05T10:20:30.000Z` → `2024-03-05`. */
export function day(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/** `2024-03-05T10:20:30.000Z` → `2024-03-05 10:20:30 UTC`. */
export function dateTime(timestamp: string): string {
  return `${timestamp.slice(0, 10)} ${timestamp.slice(11, 19)} UTC`;
}

export function period(p: ExportJob['period']): string {
  if (p.start && p.end) return `${p.start} – ${p.end}`;
  if (p.start) return `from ${p.start}`;
  if (p.end) return `until ${p.end}`;
  return 'all dates';
}

export const REPORT_NAMES: Record<ReportType, string> = {
  summary: 'Summary',
  detailed: 'Detailed',
  tax: 'Tax',
  audit: 'Audit',
  income: 'Income',
  form8949: 'Form 8949',
  turbotax: 'TurboTax',
  taxact: 'TaxAct',
  reconciliation: 'Reconciliation',
  positions: 'Positions',
  rollforward: 'Roll-forward',
};

export function reportTitle(job: ExportJob): string {
  const title = job.options.pdf_title?.trim();
  if (title) return title;
  const country = job.reportType === 'tax' && job.options.jurisdiction ? jurisdictionTitle(job.options.jurisdiction) : null;
  return country ?? `Transaction report — ${REPORT_NAMES[job.reportType ?? 'detailed']}`;
}

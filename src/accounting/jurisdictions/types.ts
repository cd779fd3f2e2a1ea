/**
 * What a jurisdiction is to txa (docs/jurisdictions.md; CONTRIBUTING.md "A tax rule or
 * a jurisdiction"): its tax year, the cost-basis methods its law allows, its default currency, and
 * its tax report: the lines and totals it computes from the stream of LedgerRows. A new country is
 * one file implementing this, registered in index.ts, with its tax office's worked examples as tests.
 */
import type { CostBasis } from '../../core/export-values.js';
import type { DateRange } from '../../core/dates.js';
import type { JurisdictionCode } from '../../core/jurisdictions.js';
import type { AssetTable } from '../assets.js';
import type { LedgerRow } from '../ledger-row.js';
import type { LotPick } from '../tax-ledger.js';

/** A report cell: text, money as exact cents (2 decimals in CSV, a number in JSON), or empty. */
export type ReportCell = string | bigint | null;
export type ReportLine = Record<string, ReportCell>;

/** One total of the report: `key` in JSON, `label` in CSV and PDF. */
export interface ReportTotal {
  key: string;
  label: string;
  value: bigint | number;
  /** `money`: cents; `count`: a plain number. */
  kind: 'money' | 'count';
}

/** A jurisdiction's tax report over one stream of rows in time order (all history: pools need it). */
export interface JurisdictionReport {
  /** Takes a row; `reported` when it is in the report's period and filter. Answers the lines it completed. */
  add(row: LedgerRow, reported: boolean): ReportLine[];
  /** The stream ended: the lines still held. */
  end(): ReportLine[];
  /** The totals of the lines answered (after `end`). */
  totals(): ReportTotal[];
}

export interface ReportInput {
  assets: AssetTable;
  method: CostBasis;
  /** Wallets in the order they were added, and the specific-identification picks (reports made of lots). */
  books?: { walletOrder: readonly string[]; picks: ReadonlyMap<string, readonly LotPick[]> };
}

export interface Jurisdiction {
  code: JurisdictionCode;
  /** The name in report titles, e.g. `United Kingdom`. */
  name: string;
  /** Default report currency (ISO code). */
  currency: string;
  /** Cost-basis methods its law allows, the first the default. */
  methods: readonly CostBasis[];
  /** The tax year that starts in `year`. */
  taxYear(year: number): DateRange;
  /** The year the tax year of `day` (`YYYY-MM-DD`) starts in. */
  taxYearOf(day: string): number;
  /** The tax report's columns, in order; null where the report is the US one (exporters/tax-report.ts). */
  columns: readonly string[] | null;
  /** The tax report; null where the report is the US one. */
  report: ((input: ReportInput) => JurisdictionReport) | null;
}

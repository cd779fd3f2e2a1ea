/**
 * The value sets of an export request (docs/exports.md "Validation") and its resolved options. The request's
 * schema (export-schema.ts), the writers, the store's SQL cells and the txa CSV importer all use
 * them; a leaf of constants, so whoever imports it loads nothing else.
 */

export const CSV_COLUMNS = [
  'date',
  'tx_hash',
  'from_address',
  'to_address',
  'wallet_label',
  'chain',
  'token',
  'amount',
  'fiat_value',
  'direction',
  'type',
  'tags',
  'notes',
  'attachments',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

export const PDF_REPORT_TYPES = ['summary', 'detailed', 'tax', 'audit', 'form8949', 'positions', 'rollforward'] as const;
export type PdfReportType = (typeof PDF_REPORT_TYPES)[number];
/** Report types a CSV or JSON export takes (docs/accounting.md "Reports", docs/reports.md). */
export const TABLE_REPORT_TYPES = ['tax', 'income', 'form8949', 'turbotax', 'taxact', 'reconciliation', 'positions', 'rollforward'] as const;
export const REPORT_TYPES = [
  'summary',
  'detailed',
  'tax',
  'audit',
  'income',
  'form8949',
  'turbotax',
  'taxact',
  'reconciliation',
  'positions',
  'rollforward',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** The formats each report type is written in (docs/exports.md "Validation"). */
export const REPORT_FORMATS: Record<ReportType, readonly ('csv' | 'json' | 'pdf')[]> = {
  summary: ['pdf'],
  detailed: ['pdf'],
  audit: ['pdf'],
  tax: ['csv', 'json', 'pdf'],
  income: ['csv', 'json'],
  form8949: ['csv', 'pdf'],
  turbotax: ['csv'],
  taxact: ['csv'],
  reconciliation: ['csv', 'json'],
  positions: ['csv', 'json', 'pdf'],
  rollforward: ['csv', 'json', 'pdf'],
};

/** Report options that only some report types take; any other report refuses them (INVALID_FIELD). */
export const REPORT_OPTIONS: Record<string, readonly ReportType[]> = {
  at: ['positions'],
};

export const GROUP_BY = ['month', 'wallet', 'tag', 'token'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export const DATE_FORMATS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY'] as const;

/** `specific`: the lots recorded for each disposal (specific identification), the rest by FIFO (docs/accounting.md). */
export const COST_BASIS = ['fifo', 'lifo', 'hifo', 'specific'] as const;
export type CostBasis = (typeof COST_BASIS)[number];

/** Lots per wallet (the US rule from 2025) or one pool per asset; absent, by year (docs/accounting.md "Scope by year"). */
export const BASIS_SCOPES = ['wallet', 'universal'] as const;
export type BasisScope = (typeof BASIS_SCOPES)[number];

/** Fees added to the acquired lot's cost or taken from proceeds (`adjust`), or disposals of their own (`separate`). */
export const FEE_TREATMENTS = ['adjust', 'separate'] as const;
export type FeeTreatment = (typeof FEE_TREATMENTS)[number];

/** The jurisdictions a workspace or a report can be in (docs/accounting.md "Jurisdictions"; their data in jurisdictions.ts). */
export const JURISDICTIONS = ['us', 'uk', 'ca', 'de', 'au'] as const;
export type JurisdictionCode = (typeof JURISDICTIONS)[number];

export interface ExportOptions {
  currency: string;
  date_format: string;
  include_summary: boolean;
  group_by?: GroupBy;
  pdf_title?: string;
  include_logo: boolean;
  cost_basis: CostBasis;
  /** Absent: pooled before 2025, per wallet from then (docs/accounting.md "Scope by year"). */
  basis_scope?: BasisScope;
  fee_treatment: FeeTreatment;
  /** Refuse the export when its period has findings reports note (docs/periods.md, "Report notes"). */
  strict?: boolean;
  /** `positions`: the day (YYYY-MM-DD) whose end the open lots are shown at; default the period's end. */
  at?: string;
  /** The rules the report is made by, when not the US ones (docs/accounting.md "Jurisdictions"). */
  jurisdiction?: JurisdictionCode;
}

/**
 * The body of `POST /api/v1/exports` (docs/exports.md "Validation"): its zod schema and the checks
 * that span fields, resolved into one validated request with the API's defaults (same section). The value
 * sets (columns, report types, …) come from export-values.ts, a leaf module of constants.
 */
import { z } from 'zod';
import { TxaError } from './errors.js';
import { validateBody } from './validate.js';
import { requireDay } from './dates.js';
import { buildFilter, type TxFilter } from './filters.js';
import { EXPORT_FORMATS, JOURNAL_FORMATS, type ExportFormat, type Workspace } from './types.js';
import {
  checkMethod,
  JURISDICTION_CURRENCY,
  JURISDICTION_NAME,
  JURISDICTIONS,
  JURISDICTIONS_WITH_TAX_REPORT,
  parseJurisdiction,
  taxYearRange,
  type JurisdictionCode,
} from './jurisdictions.js';
import {
  BASIS_SCOPES,
  FEE_TREATMENTS,
  COST_BASIS,
  CSV_COLUMNS,
  DATE_FORMATS,
  GROUP_BY,
  PDF_REPORT_TYPES,
  REPORT_FORMATS,
  REPORT_OPTIONS,
  REPORT_TYPES,
  TABLE_REPORT_TYPES,
  type CsvColumn,
  type ExportOptions,
  type ReportType,
} from './export-values.js';
import { article } from './errno.js';

export const DELIVERY_METHODS = ['download', 'email', 'webhook'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** A date pattern: one of DATE_FORMATS, optionally followed by ` HH:mm:ss` or ` HH:mm`. */
export function isDateFormat(pattern: string): boolean {
  const [day, time, ...rest] = pattern.split(' ');
  return rest.length === 0 && (DATE_FORMATS as readonly string[]).includes(day!) && (time === undefined || time === 'HH:mm:ss' || time === 'HH:mm');
}

export const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
const oneOfMsg = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });
const amount = z.union([z.number(), z.string()], { message: 'must be a number in token units' });

const filtersSchema = z.object({
  wallet_ids: z.array(z.string().min(1), { message: 'must be an array of wallet ids' }).optional(),
  chain: z.string().optional(),
  token: z.string().optional(),
  direction: z.string().optional(),
  tag_ids: z.array(z.string().min(1), { message: 'must be an array of tag ids' }).optional(),
  start_date: z.string({ message: 'must be a date YYYY-MM-DD' }).optional(),
  end_date: z.string({ message: 'must be a date YYYY-MM-DD' }).optional(),
  min_amount: amount.optional(),
  max_amount: amount.optional(),
  has_tags: z.boolean({ message: 'must be true or false' }).optional(),
  has_notes: z.boolean({ message: 'must be true or false' }).optional(),
  internal: z.boolean({ message: 'must be true or false' }).optional(),
  include_spam: z.boolean({ message: 'must be true or false' }).optional(),
  /** The tax year that starts in this year, of the report's jurisdiction (the CLI's `--period YYYY` of a tax or income report). */
  tax_year: z
    .number({ message: 'must be a year such as 2024' })
    .int({ message: 'must be a year such as 2024' })
    .min(1970, { message: 'must be a year such as 2024' })
    .max(9998, { message: 'must be a year such as 2024' })
    .optional(),
});

const optionsSchema = z.strictObject({
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, { message: 'must be a three-letter currency code such as USD' })
    .optional(),
  date_format: z
    .string()
    .refine(isDateFormat, { message: `must be one of ${DATE_FORMATS.join(', ')}, optionally followed by ' HH:mm:ss' or ' HH:mm'` })
    .optional(),
  include_summary: z.boolean({ message: 'must be true or false' }).optional(),
  group_by: z.enum(GROUP_BY, oneOfMsg(GROUP_BY)).optional(),
  pdf_title: z.string().max(200, { message: 'must be at most 200 characters' }).optional(),
  include_logo: z.boolean({ message: 'must be true or false' }).optional(),
  cost_basis: z.enum(COST_BASIS, oneOfMsg(COST_BASIS)).optional(),
  basis_scope: z.enum(BASIS_SCOPES, oneOfMsg(BASIS_SCOPES)).optional(),
  fee_treatment: z.enum(FEE_TREATMENTS, oneOfMsg(FEE_TREATMENTS)).optional(),
  strict: z.boolean({ message: 'must be true or false' }).optional(),
  at: z.string({ message: 'must be a date YYYY-MM-DD' }).optional(),
  jurisdiction: z.string({ message: `must be one of ${JURISDICTIONS.join(', ')}` }).optional(),
});

const deliverySchema = z.object({
  method: z.enum(DELIVERY_METHODS, oneOfMsg(DELIVERY_METHODS)).optional(),
  email_recipients: z.array(z.string(), { message: 'must be an array of e-mail addresses' }).optional(),
  webhook_url: z.string({ message: 'must be an http(s) URL' }).optional(),
});

export const exportCreateSchema = z.object({
  workspace_id: z.string().optional(),
  format: z.enum(EXPORT_FORMATS, oneOfMsg(EXPORT_FORMATS)),
  report_type: z.enum(REPORT_TYPES, oneOfMsg(REPORT_TYPES)).optional(),
  filters: filtersSchema.optional(),
  // Checked below so the error names `columns` rather than `columns.3`.
  columns: z.array(z.string(), { message: 'must be an array of column names' }).optional(),
  options: optionsSchema.optional(),
  delivery: deliverySchema.optional(),
});

export type ExportFilters = z.output<typeof filtersSchema>;

export interface Delivery {
  method: DeliveryMethod;
  email_recipients?: string[];
  webhook_url?: string;
}

/** A validated export request with every default filled in. */
export interface ExportRequest {
  format: ExportFormat;
  report_type?: ReportType;
  /** The filters as given (echoed in JSON exports); `filter` is their parsed form. */
  filters: ExportFilters;
  columns: CsvColumn[];
  options: ExportOptions;
  delivery: Delivery;
}

function fail(code: 'INVALID_FIELD' | 'MISSING_REQUIRED_FIELD' | 'MISSING_REPORT_TYPE', field: string, message: string): never {
  throw new TxaError(code, message, { field });
}

/** PDFs need a report type; CSV and JSON take none (transactions) or one whose formats name them (REPORT_FORMATS, docs/exports.md "Validation"). */
function checkReportType(format: ExportFormat, type: ReportType | undefined): void {
  if (format === 'pdf' && type === undefined) {
    fail('MISSING_REPORT_TYPE', 'report_type', `report_type is required for PDF exports: one of ${PDF_REPORT_TYPES.join(', ')}`);
  }
  if (type === undefined || (JOURNAL_FORMATS as readonly string[]).includes(format)) return;
  const formats = REPORT_FORMATS[type] as readonly string[];
  if (formats.includes(format)) return;
  const takes = format === 'pdf' ? PDF_REPORT_TYPES : TABLE_REPORT_TYPES.filter((t) => (REPORT_FORMATS[t] as readonly string[]).includes(format));
  fail(
    'INVALID_FIELD',
    'report_type',
    `report_type ${type} is written as ${formats.map((f) => f.toUpperCase()).join(' or ')}, not ${format.toUpperCase()}; ${format.toUpperCase()} exports take ${takes.join(', ')}`,
  );
}

/** An option of some report types only (REPORT_OPTIONS) given to another: refused, not ignored. */
function checkReportOptions(type: ReportType | undefined, options: Record<string, unknown> | undefined): void {
  for (const [name, types] of Object.entries(REPORT_OPTIONS)) {
    if (options?.[name] === undefined) continue;
    if (type === undefined || !types.includes(type))
      fail('INVALID_FIELD', `options.${name}`, `options.${name} applies to report_type ${types.join(', ')} only`);
  }
  const at = options?.at;
  if (typeof at === 'string') requireDay(at, 'options.at', 'INVALID_FIELD');
}

/** Journals (docs/journals.md) are files for download that take no report type and no grouping. */
function checkJournal(b: z.output<typeof exportCreateSchema>): void {
  if (!(JOURNAL_FORMATS as readonly string[]).includes(b.format)) return;
  if (b.report_type !== undefined) fail('INVALID_FIELD', 'report_type', `a ${b.format} journal takes no report_type`);
  if (b.options?.group_by !== undefined) fail('INVALID_FIELD', 'options.group_by', `a ${b.format} journal takes no group_by`);
  const method = b.delivery?.method ?? 'download';
  if (method !== 'download') fail('INVALID_FIELD', 'delivery.method', `a ${b.format} journal is delivered by download only, not by ${method}`);
}

function checkColumns(format: ExportFormat, columns: string[] | undefined): CsvColumn[] {
  if (columns === undefined) return [...CSV_COLUMNS];
  if (format !== 'csv') fail('INVALID_FIELD', 'columns', 'columns applies to CSV exports only');
  if (columns.length === 0) fail('INVALID_FIELD', 'columns', 'columns must name at least one column');
  const unknown = columns.find((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  if (unknown !== undefined) fail('INVALID_FIELD', 'columns', `unknown column '${unknown}'; columns are ${CSV_COLUMNS.join(', ')}`);
  const duplicate = columns.find((c, i) => columns.indexOf(c) !== i);
  if (duplicate !== undefined) fail('INVALID_FIELD', 'columns', `column '${duplicate}' is named twice`);
  return columns as CsvColumn[];
}

function checkDelivery(d: z.output<typeof deliverySchema> | undefined): Delivery {
  const method = d?.method ?? 'download';
  if (method === 'email') {
    const to = d?.email_recipients;
    if (!to?.length) fail('MISSING_REQUIRED_FIELD', 'delivery.email_recipients', 'delivery.email_recipients is required for e-mail delivery');
    const bad = to.find((a) => !EMAIL.test(a.trim()));
    if (bad !== undefined) fail('INVALID_FIELD', 'delivery.email_recipients', `'${bad}' is not an e-mail address`);
    return { method, email_recipients: to.map((a) => a.trim()) };
  }
  if (method === 'webhook') {
    const url = d?.webhook_url;
    if (url === undefined || url === '') fail('MISSING_REQUIRED_FIELD', 'delivery.webhook_url', 'delivery.webhook_url is required for webhook delivery');
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      fail('INVALID_FIELD', 'delivery.webhook_url', `delivery.webhook_url must be an http(s) URL, got '${url}'`);
    }
    return { method, webhook_url: parsed.href };
  }
  return { method };
}

/**
 * The typed filter of an export's `filters` (end_date must be after start_date). A job reads the
 * filters of a request already accepted (`strictRange` false): a scheduled daily report's one day
 * (docs/server.md "Scheduled reports") is set by the engine, not asked for.
 */
export function exportFilter(filters: ExportFilters, strictRange = true): TxFilter {
  const asText = (v: number | string | undefined) => (v === undefined ? undefined : String(v));
  return buildFilter({ ...filters, min_amount: asText(filters.min_amount), max_amount: asText(filters.max_amount) }, 'INVALID_FIELD', 'filters.', strictRange);
}

/**
 * The body's filters with `tax_year` replaced, in its place, by that tax year's first and last
 * days (so a JSON report echoes the dates it covers); the body's dates with it are refused.
 */
function taxYearFilters(filters: ExportFilters, code: JurisdictionCode): ExportFilters {
  if (filters.tax_year === undefined) return filters;
  if (filters.start_date !== undefined || filters.end_date !== undefined)
    fail('INVALID_FIELD', 'filters.tax_year', 'filters.tax_year cannot be combined with filters.start_date or filters.end_date');
  const range = taxYearRange(code, filters.tax_year);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === 'tax_year') Object.assign(out, range);
    else out[key] = value;
  }
  return out as ExportFilters;
}

/**
 * Validates a create-export body; returns the request and its parsed filter. With the workspace,
 * its jurisdiction (or the `jurisdiction` option's, a what-if) decides `filters.tax_year`'s days,
 * a tax or income report's default currency, and which `cost_basis` is allowed (docs/accounting.md
 * "Jurisdictions"); a US request is left exactly as it was.
 */
export function parseExportBody(body: unknown, ws?: Pick<Workspace, 'jurisdiction'>): { request: ExportRequest; filter: TxFilter } {
  const b = validateBody(exportCreateSchema, body);
  const code = b.options?.jurisdiction === undefined ? (ws?.jurisdiction ?? 'us') : parseJurisdiction(b.options.jurisdiction);
  const report = b.report_type === 'tax' || b.report_type === 'income';
  checkJournal(b);
  checkReportType(b.format, b.report_type);
  checkReportOptions(b.report_type, b.options);
  const table = b.report_type !== undefined && b.format !== 'pdf';
  if (table && b.columns !== undefined)
    fail('INVALID_FIELD', 'columns', `columns applies to transaction exports; ${article(b.report_type ?? '')} ${b.report_type} report has fixed columns`);
  if (table && b.options?.group_by !== undefined)
    fail('INVALID_FIELD', 'options.group_by', `group_by applies to transaction exports, not to ${article(b.report_type ?? '')} ${b.report_type} report`);
  const columns = checkColumns(b.format, b.columns);
  const filters = taxYearFilters(b.filters ?? {}, code);
  const filter = exportFilter(filters);
  const o = b.options ?? {};
  if (b.report_type === 'tax' && !JURISDICTIONS_WITH_TAX_REPORT.includes(code))
    fail(
      'INVALID_FIELD',
      'jurisdiction',
      `the tax report of jurisdiction ${code} (${JURISDICTION_NAME[code]}) is not written yet; jurisdictions with a tax report: ${JURISDICTIONS_WITH_TAX_REPORT.join(', ')}`,
    );
  const options: ExportOptions = {
    currency: (o.currency ?? (report ? JURISDICTION_CURRENCY[code] : 'USD')).toUpperCase(),
    date_format: o.date_format ?? 'YYYY-MM-DD',
    include_summary: o.include_summary ?? true,
    include_logo: o.include_logo ?? true,
    // Income reports take no lots: only a tax report's method is the jurisdiction's to refuse.
    cost_basis: b.report_type === 'tax' ? checkMethod(code, o.cost_basis) : (o.cost_basis ?? 'fifo'),
    fee_treatment: o.fee_treatment ?? 'adjust',
  };
  if (o.basis_scope !== undefined) options.basis_scope = o.basis_scope;
  if (o.group_by !== undefined) options.group_by = o.group_by;
  if (o.pdf_title !== undefined) options.pdf_title = o.pdf_title;
  if (o.strict) options.strict = true;
  if (o.at !== undefined) options.at = o.at;
  // Only a jurisdiction other than the US, or one asked for, is written: US requests stay as before.
  if (code !== 'us' || o.jurisdiction !== undefined) options.jurisdiction = code;
  const request: ExportRequest = { format: b.format, filters, columns, options, delivery: checkDelivery(b.delivery) };
  if (b.report_type !== undefined) request.report_type = b.report_type;
  return { request, filter };
}

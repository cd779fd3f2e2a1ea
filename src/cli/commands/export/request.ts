/** The API request of `txa export create`, made from its flags, and the `--out` check it shares with `download`. */
import { TxaError } from '../../../core/errors.js';
import { outTarget } from '../../../files/out-file.js';
import type { FilterFlags } from '../../filter-flags.js';
import { dateRange } from '../../filter-flags.js';
import { booleanFlag, list } from '../../run.js';

/** The flags of `export create` that make its request. */
export interface RequestFlags extends FilterFlags {
  format: string;
  reportType?: string;
  walletIds?: string;
  columns?: string;
  currency?: string;
  dateFormat?: string;
  includeSummary?: boolean;
  groupBy?: string;
  pdfTitle?: string;
  includeLogo?: boolean;
  costBasis?: string;
  basisScope?: string;
  feeTreatment?: string;
  jurisdiction?: string;
  strict?: boolean;
  at?: string;
  delivery?: string;
  email?: string;
  webhookUrl?: string;
}

export type ExportBody = ReturnType<typeof exportBody>;

/** `--out` must name a regular file (or a new one) in an existing directory; checked before the export is created. */
export function checkOutDir(out: string | undefined): void {
  if (out !== undefined) outTarget(out);
}

export function exportBody(ws: string, o: RequestFlags) {
  // A tax or income report's `--period YYYY` is the jurisdiction's tax year (UK 6 April–5 April),
  // which the engine knows: it goes as `tax_year`; every other period is calendar dates.
  const taxYear = (o.reportType === 'tax' || o.reportType === 'income') && o.period !== undefined && /^\d{4}$/.test(o.period) ? Number(o.period) : undefined;
  const range = dateRange(o);
  const { start_date, end_date } = taxYear === undefined ? range : {};
  return {
    workspace_id: ws,
    // Values the API checks go as they are, so a bad one gets the API's code and dotted field
    // (INVALID_FIELD options.group_by, delivery.method, …) exactly as over HTTP.
    format: o.format,
    report_type: o.reportType,
    filters: {
      wallet_ids: list(o.walletIds),
      chain: o.chain,
      token: o.token,
      direction: o.direction,
      tag_ids: list(o.tagIds),
      start_date,
      end_date,
      tax_year: taxYear,
      min_amount: o.minAmount,
      max_amount: o.maxAmount,
      has_tags: booleanFlag(o.hasTags),
      internal: booleanFlag(o.internal),
      include_spam: o.includeSpam || undefined,
    },
    columns: list(o.columns),
    options: {
      currency: o.currency,
      date_format: o.dateFormat,
      include_summary: o.includeSummary,
      group_by: o.groupBy,
      pdf_title: o.pdfTitle,
      include_logo: o.includeLogo,
      cost_basis: o.costBasis,
      basis_scope: o.basisScope,
      fee_treatment: o.feeTreatment,
      jurisdiction: o.jurisdiction,
      strict: o.strict || undefined,
      at: o.at,
    },
    delivery: { method: deliveryMethod(o), email_recipients: list(o.email), webhook_url: o.webhookUrl },
  };
}

/** `--delivery`, else the method `--email` or `--webhook-url` implies: a recipient flag never means a silent download. */
function deliveryMethod(o: RequestFlags): string | undefined {
  const method = o.delivery;
  const recipients = [o.email !== undefined ? '--email' : '', o.webhookUrl !== undefined ? '--webhook-url' : ''].filter(Boolean);
  if (method === 'download' && recipients.length > 0) {
    throw new TxaError('USAGE_ERROR', `--delivery download cannot be combined with ${recipients.join(' or ')}`, { field: 'delivery' });
  }
  if (method !== undefined || recipients.length === 0) return method;
  if (recipients.length > 1)
    throw new TxaError('USAGE_ERROR', '--email with --webhook-url needs --delivery email or --delivery webhook', { field: 'delivery' });
  return o.email !== undefined ? 'email' : 'webhook';
}

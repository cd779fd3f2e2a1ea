import type { Command } from 'commander';
import type { Backend } from '../../../core/backend.js';
import type { LocalBackend } from '../../../engine/local-backend.js';
import { TxaError, isErrorCode } from '../../../core/errors.js';
import type { ExportRecord } from '../../../core/types.js';
import { outTarget } from '../../../files/out-file.js';
import type { Context } from '../../context.js';
import { action, booleanFlag, list } from '../../run.js';
import { addFilterOptions, dateRange, type FilterFlags } from '../../filter-flags.js';
import { defaultFileName, printExport } from './view.js';
import { progressView } from './progress.js';
import { tagResolver } from '../../tag-flags.js';

const POLL_MS = 1000;

interface Opts extends FilterFlags {
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
  delivery?: string;
  email?: string;
  webhookUrl?: string;
  out?: string;
  wait?: boolean;
}

/** `--out` must name a regular file (or a new one) in an existing directory; checked before the export is created. */
export function checkOutDir(out: string | undefined): void {
  if (out !== undefined) outTarget(out);
}

function bodyOf(ws: string, o: Opts) {
  const { start_date, end_date } = dateRange(o);
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
    },
    delivery: { method: deliveryMethod(o), email_recipients: list(o.email), webhook_url: o.webhookUrl },
  };
}

/** `--delivery`, else the method `--email` or `--webhook-url` implies: a recipient flag never means a silent download. */
function deliveryMethod(o: Opts): string | undefined {
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

/** A URL as one shell word, so the hint can be pasted (webhook URLs often carry `?` and `&`). */
function shellWord(text: string): string {
  return /^[\w@%+=:,./~-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The export's `export.completed` call is signed with the secret of a subscription receiving that
 * event at its URL; without one, nothing the user holds verifies it (docs/exports.md, "Webhook").
 * Advice only: a failed lookup prints nothing, and the export stands either way.
 */
async function hintUnverifiable(ctx: Context, backend: Backend, ws: string, rec: ExportRecord): Promise<void> {
  const url = rec.delivery?.method === 'webhook' ? rec.delivery.webhook_url : undefined;
  if (ctx.out.json || !url) return;
  const hooks = await backend.listWebhooks(ws).catch(() => null);
  if (!hooks) return;
  const { receives } = await import('../../../engine/webhooks.js');
  if (hooks.some((h) => receives(h, url, 'export.completed'))) return;
  ctx.out.notice(
    `hint: to verify this export's signed call, subscribe its URL first (the secret is printed once): txa webhooks add --url ${shellWord(url)} --events export.completed`,
  );
}

/** A beancount file with amounts beyond its 28 digits says so in its last line (docs/journals.md, "Beyond 28 digits"): repeated on stderr. */
async function noticePieces(ctx: Context, file: string): Promise<void> {
  const { piecesNotice } = await import('../../../exporters/journal/precision.js');
  const notice = await piecesNotice(file);
  if (notice) ctx.out.notice(notice);
}

/** Runs a job to its end: in this process on the local ledger (it holds the job already), else by polling the API. */
async function follow(ctx: Context, backend: Backend, ws: string, rec: ExportRecord, wait: boolean, signal?: AbortSignal): Promise<ExportRecord> {
  const view = await progressView(ctx.out, `export ${rec.id}`);
  if (backend.kind === 'local') {
    const { runExportJob } = await import('../../../engine/export-jobs.js');
    await runExportJob((backend as LocalBackend).engine, rec.id, (p) => view.update(p.progress, `(${p.done}/${p.total} rows)`), { role: 'cli', signal });
  } else if (wait) {
    while (rec.status === 'queued' || rec.status === 'processing') {
      await new Promise((r) => setTimeout(r, POLL_MS));
      rec = await backend.getExport(ws, rec.id);
      view.update(rec.progress ?? (rec.status === 'completed' ? 100 : 0), rec.estimated_completion ? `(eta ${rec.estimated_completion})` : undefined);
    }
  } else {
    return rec;
  }
  rec = await backend.getExport(ws, rec.id);
  view.stop(`export ${rec.id} ${rec.status}`, rec.status === 'completed');
  return rec;
}

/** A download runs while the export is created: past a second it shows progress on a terminal (docs/exports.md). */
const DOWNLOAD_PROGRESS_AFTER_MS = 1000;

/** Creates the export on the local ledger; a download is written now, with its progress. */
async function createLocal(ctx: Context, backend: LocalBackend, ws: string, body: ReturnType<typeof bodyOf>, signal?: AbortSignal): Promise<ExportRecord> {
  if (body.delivery.method !== undefined && body.delivery.method !== 'download') return backend.createExport(ws, body, { role: 'cli', signal });
  const view = await progressView(ctx.out, `export ${body.format}`, { afterMs: DOWNLOAD_PROGRESS_AFTER_MS, terminalOnly: true });
  try {
    const rec = await backend.createExport(ws, body, { role: 'cli', signal, onProgress: (p) => view.update(p.progress, `(${p.done}/${p.total} rows)`) });
    view.stop(`export ${rec.id} ${rec.status}`, true);
    return rec;
  } catch (err) {
    view.stop(`export ${body.format} failed`, false);
    throw err;
  }
}

export function registerCreate(parent: Command): void {
  const cmd = parent
    .command('create')
    .description('create an export: download writes the file; email and webhook run the job (in this process on the local ledger)')
    .requiredOption('--format <format>', 'csv, json, pdf, or ledger/beancount (a journal for hledger/beancount, docs/journals.md)')
    .option('--report-type <type>', 'PDF: summary, detailed, tax or audit; CSV/JSON: tax or income (docs/accounting.md)')
    .option('--wallet-ids <ids>', 'comma-separated wallet ids');
  addFilterOptions(cmd)
    .option('--columns <a,b>', 'CSV columns in this order (default: all)')
    .option('--currency <code>', 'currency of values, converted with `txa rates` (default USD)')
    .option('--date-format <pattern>', "YYYY-MM-DD (default), MM/DD/YYYY or DD/MM/YYYY, optionally + ' HH:mm:ss' or ' HH:mm'")
    .option('--include-summary', 'append totals (default)')
    .option('--no-include-summary', 'a bare table without totals')
    .option('--group-by <key>', 'month, wallet, tag or token')
    .option('--pdf-title <title>', 'title of a PDF report')
    .option('--include-logo', 'logo in the PDF header (default)')
    .option('--no-include-logo', 'no logo in the PDF header')
    .option('--cost-basis <method>', 'tax report: fifo (default), lifo or hifo')
    .option('--basis-scope <scope>', 'tax report: wallet (default: lots per wallet) or universal (one pool per asset)')
    .option('--delivery <method>', 'download (the default without --email/--webhook-url), email or webhook')
    .option('--email <a,b>', 'recipients; implies --delivery email')
    .option('--webhook-url <url>', 'URL to POST export.completed to; implies --delivery webhook')
    .option('--out <path>', 'where download writes the file (default ./<export_id>.<ext>)')
    .option('--wait', 'remote backend: poll until an email/webhook export ends (local runs it in the foreground anyway)')
    .action(
      action<Opts>(async (ctx, o) => {
        const ws = ctx.workspace();
        const body = bodyOf(ws, o);
        checkOutDir(o.out);
        const backend = await ctx.backend();
        // Tag names become ids only now: the flags' usage errors come before any request.
        if (body.filters.tag_ids) body.filters.tag_ids = await tagResolver(backend, ws)(body.filters.tag_ids, 'tag-ids');
        const run = async (signal?: AbortSignal): Promise<{ rec: ExportRecord; file?: string }> => {
          // On the local ledger this process claims the job as it creates it, and runs it.
          const rec = backend.kind === 'local' ? await createLocal(ctx, backend as LocalBackend, ws, body, signal) : await backend.createExport(ws, body);
          if (rec.status === 'completed' && rec.delivery?.method !== 'email' && rec.delivery?.method !== 'webhook') {
            return { rec, file: (await backend.downloadExport(ws, rec.id, o.out ?? defaultFileName(rec))).path };
          }
          await hintUnverifiable(ctx, backend, ws, rec);
          return { rec: await follow(ctx, backend, ws, rec, Boolean(o.wait), signal) };
        };
        const { rec, file } =
          backend.kind === 'local' ? await (await import('./interrupt.js')).interruptible((backend as LocalBackend).engine, ctx.out, run) : await run();
        if (ctx.out.json) ctx.out.body({ success: true, data: rec });
        else printExport(ctx.out, rec, file);
        if (file && rec.format === 'beancount') await noticePieces(ctx, file);
        if (rec.status === 'failed' && rec.error) {
          const code = isErrorCode(rec.error.code) ? rec.error.code : 'CONNECTION_ERROR';
          throw new TxaError(code, `export ${rec.id} failed: ${rec.error.code}: ${rec.error.message}`);
        }
      }),
    );
}

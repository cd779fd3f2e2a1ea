/** `txa export create`: an export of the workspace's transactions, downloaded, e-mailed or sent to a webhook (docs/exports.md). */
import type { Command } from 'commander';
import type { Backend } from '../../../core/backend.js';
import { isErrorCode, TxaError } from '../../../core/errors.js';
import type { ExportRecord } from '../../../core/types.js';
import { receives } from '../../../core/webhook-match.js';
import type { ExportsService } from '../../../local/services.js';
import type { Context } from '../../context.js';
import { addFilterOptions } from '../../filter-flags.js';
import { action } from '../../run.js';
import { tagResolver } from '../../tag-flags.js';
import { createLocal, follow } from './jobs.js';
import { checkOutDir, type ExportBody, exportBody, type RequestFlags } from './request.js';
import { defaultFileName, printExport } from './view.js';
import { existsSync } from 'node:fs';

export interface CreateOptions extends RequestFlags {
  /** Where a download is written (default ./<export_id>.<ext>). */
  out?: string;
  /** Remote backend: poll until an e-mail or webhook export ends. */
  wait?: boolean;
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

/** Creates the export and sees it through: a completed download is written to `out`; any other job is followed. */
async function produce(
  ctx: Context,
  backend: Backend,
  ws: string,
  body: ExportBody,
  opts: CreateOptions,
  exports: ExportsService | undefined,
  signal?: AbortSignal,
): Promise<{ rec: ExportRecord; file?: string }> {
  const rec = exports ? await createLocal(ctx, exports, ws, body, signal) : await backend.createExport(ws, body);
  if (rec.status === 'completed' && rec.delivery?.method !== 'email' && rec.delivery?.method !== 'webhook') {
    return { rec, file: (await backend.downloadExport(ws, rec.id, opts.out ?? defaultFileName(rec))).path };
  }
  await hintUnverifiable(ctx, backend, ws, rec);
  return { rec: await follow(ctx, backend, ws, rec, { exports, wait: Boolean(opts.wait), signal }) };
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const ws = ctx.workspace();
  const body = exportBody(ws, opts);
  checkOutDir(opts.out);
  // An existing file is replaced (written beside it, then renamed): said on stderr, never silently (docs/cli.md, "Files").
  const replacing = opts.out !== undefined && existsSync(opts.out);
  const backend = await ctx.backend();
  // Tag names become ids only now: the flags' usage errors come before any request.
  if (body.filters.tag_ids) body.filters.tag_ids = await tagResolver(backend, ws)(body.filters.tag_ids, 'tag-ids');
  // On the local ledger this process claims the job as it creates it, and runs it; a signal fails it.
  const exports = backend.kind === 'local' ? await (await ctx.local('export create')).exports() : undefined;
  const work = (signal?: AbortSignal) => produce(ctx, backend, ws, body, opts, exports, signal);
  const { rec, file } = exports ? await (await import('./interrupt.js')).interruptible(exports, ctx.out, work) : await work();
  if (ctx.out.json) ctx.out.body({ success: true, data: rec });
  else printExport(ctx.out, rec, file);
  if (file && replacing) ctx.out.notice(`replaced the existing file ${file}`);
  if (file && rec.report_type === 'tax' && !ctx.out.json) {
    await (await import('./tax-totals.js')).printTaxTotals(ctx.out, file, rec.format, body.options.currency?.toUpperCase());
  }
  if (file && rec.format === 'beancount') await noticePieces(ctx, file);
  // A report of no rows is all zeros: say so, so a CI log shows it (`--strict` refuses it; docs/check.md `empty_period`).
  if (rec.status === 'completed' && rec.transaction_count === 0) {
    ctx.out.notice(`warning: no rows match the period and filters: ${rec.id} is empty (txa check --period … names why; --strict refuses it)`);
  }
  if (rec.status === 'failed' && rec.error) {
    const code = isErrorCode(rec.error.code) ? rec.error.code : 'CONNECTION_ERROR';
    throw new TxaError(code, `export ${rec.id} failed: ${rec.error.code}: ${rec.error.message}`);
  }
}

export function register(parent: Command): void {
  const cmd = parent
    .command('create')
    .description('create an export: download writes the file; email and webhook run the job (in this process on the local ledger)')
    .requiredOption('--format <format>', 'csv, json, pdf, or ledger/beancount (a journal for hledger/beancount, docs/journals.md)')
    .option(
      '--report-type <type>',
      'PDF: summary, detailed, tax, audit, form8949, positions or rollforward; CSV: tax, income, form8949, turbotax, taxact, reconciliation, positions or rollforward; JSON: tax, income, reconciliation, positions or rollforward (docs/reports.md)',
    )
    .option('--wallet-ids <ids>', 'comma-separated wallet ids');
  addFilterOptions(cmd)
    .option('--columns <a,b>', 'CSV columns in this order (default: all)')
    .option('--currency <code>', "currency of values, converted with `txa rates` (default USD; a tax or income report: its jurisdiction's, e.g. GBP under uk)")
    .option('--date-format <pattern>', "YYYY-MM-DD (default), MM/DD/YYYY or DD/MM/YYYY, optionally + ' HH:mm:ss' or ' HH:mm'")
    .option('--include-summary', 'append totals (default)')
    .option('--no-include-summary', 'a bare table without totals')
    .option('--group-by <key>', 'month, wallet, tag or token')
    .option('--pdf-title <title>', 'title of a PDF report')
    .option('--include-logo', 'logo in the PDF header (default)')
    .option('--no-include-logo', 'no logo in the PDF header')
    .option(
      '--cost-basis <method>',
      'tax report: fifo (default), lifo, hifo or specific (the lots picked for each disposal, the rest fifo); uk, ca and de allow fifo only (their law fixes the matching), au fifo or specific',
    )
    .option(
      '--basis-scope <scope>',
      'tax report: wallet (lots per wallet) or universal (one pool per asset); default: pooled before 2025, per wallet from 2025',
    )
    .option('--jurisdiction <code>', "tax report: another jurisdiction's rules for a what-if: us, uk, ca, de, au (default the workspace's)")
    .option('--fee-treatment <treatment>', "tax report: adjust (default: a trade's fee joins its cost or leaves its proceeds) or separate")
    .option(
      '--strict',
      'refuse the export (UNRESOLVED_FINDINGS) when its period has no rows or findings a report notes: unmatched_transfer, unpriced, unrecorded_allocation',
    )
    .option('--at <date>', "positions: the day (YYYY-MM-DD) whose end the open lots are shown at (default: the period's end)")
    .option('--delivery <method>', 'download (the default without --email/--webhook-url), email or webhook')
    .option('--email <a,b>', 'recipients; implies --delivery email')
    .option('--webhook-url <url>', 'URL to POST export.completed to; implies --delivery webhook')
    .option('-o, --out <path>', 'where download writes the file (default ./<export_id>.<ext>)')
    .option('--wait', 'remote backend: poll until an email/webhook export ends (local runs it in the foreground anyway)')
    .action(action<CreateOptions>((ctx, flags) => run(ctx, flags)));
}

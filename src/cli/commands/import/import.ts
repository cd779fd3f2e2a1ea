/** `txa import FILE` (docs/import.md): transactions from a txa, explorer, Koinly or rotki file, into the local ledger. */
import type { Command } from 'commander';
import { open } from 'node:fs/promises';
import { TxaError } from '../../../core/errors.js';
import { IMPORT_FORMATS } from '../../../importers/types.js';
import type { ImportsService } from '../../../local/services.js';
import { listRows, reportBadRows } from '../../bad-rows.js';
import type { Context } from '../../context.js';
import type { Output } from '../../output.js';
import { printRulesResult, type RulesHook, rulesHook } from '../../rules-run.js';
import { action, choice } from '../../run.js';

export interface ImportOptions {
  file: string;
  wallet?: string;
  /** The same as `wallet` (`--wallet-id`). */
  walletId?: string;
  format: string;
  tokenAddress?: string;
  dryRun?: boolean;
  /** A rules file to apply to the new rows (docs/rules.md). */
  rules?: string;
}

type ImportSummary = Awaited<ReturnType<ImportsService['importFile']>>;

/** Broker lines (Form 1099-DA), not transactions: a format of its own, never detected. */
const BROKER_FORMAT = '1099da';
type Skipped = { line: number; reason: string };

/** Enough of a file to see its header line or first JSON record. */
const HEAD_BYTES = 64 * 1024;

async function readHead(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(HEAD_BYTES), position: 0 });
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

/**
 * A file that fails as the `--format` given but looks like another format: the error names that
 * one (and drops a hint that was about the wrong format). Only read on this failure path.
 */
async function withDetectedFormat(err: unknown, file: string, format: string): Promise<unknown> {
  if (format === 'auto' || !(err instanceof TxaError) || err.code !== 'IMPORT_FAILED') return err;
  const { detectedFormat, FORMAT_NAMES } = await import('../../../importers/index.js');
  const found = detectedFormat(await readHead(file).catch(() => ''));
  if (found === undefined || found === format) return err;
  return new TxaError('IMPORT_FAILED', `${err.message}; the file looks like ${FORMAT_NAMES[found]}: try --format ${found}`, {
    field: err.field,
    extra: err.extra,
    cause: err,
  });
}

/** The import's summary, its skipped rows and the rules' outcome, for humans. */
function printSummary(out: Output, summary: ImportSummary, skipped: Skipped[], rules: RulesHook | undefined): void {
  out.record([
    ['format', summary.format],
    ['imported', summary.imported],
    ['duplicates skipped', summary.duplicates],
    ['rows skipped', summary.skipped],
    ['flagged as spam', summary.spam],
    ['fees revalued', summary.revalued],
    ['own transfer legs matched', summary.transfers_matched],
    ...summary.wallets.map((w): [string, string] => [`wallet ${w.id}`, `${w.label}: ${w.imported} imported`]),
  ]);
  if (skipped.length > 0) {
    out.notice(`${skipped.length} row${skipped.length === 1 ? ' was' : 's were'} skipped:`);
    listRows(out, skipped);
  }
  // Spam rows are left out of `tx list` and reports: without this line `imported 9` and a list of 8 disagree.
  if (summary.spam > 0) {
    out.notice(
      `${summary.spam} of the imported rows ${summary.spam === 1 ? 'was' : 'were'} flagged as spam and left out of lists and reports: see them with txa tx list --include-spam`,
    );
  }
  if (rules && summary.imported > 0) printRulesResult(out, rules.take());
  if (summary.dry_run) out.notice('dry run: nothing was written');
}

/** `--format 1099da`: a broker's 1099-DA lines into the wallet's broker lines, all or none. */
async function runBrokerLines(ctx: Context, opts: ImportOptions): Promise<void> {
  // `--wallet-id` (the documented form) or its alias `--wallet`.
  const wallet = opts.walletId ?? opts.wallet;
  if (wallet === undefined) throw new TxaError('USAGE_ERROR', '--format 1099da needs --wallet-id ID: the account the broker reported', { field: 'wallet-id' });
  const ws = ctx.workspace();
  const imports = await (await ctx.local('import')).imports();
  let summary: Awaited<ReturnType<ImportsService['importBrokerLines']>>;
  try {
    summary = await imports.importBrokerLines(ws, opts.file, wallet, opts.dryRun);
  } catch (err) {
    if (reportBadRows(ctx.out, err)) return;
    throw err;
  }
  if (ctx.out.json) {
    ctx.out.body({ success: true, data: summary });
    return;
  }
  ctx.out.record([
    ['format', summary.format],
    ['wallet', summary.wallet_id],
    ['broker lines imported', summary.imported],
    ['lines replaced', summary.replaced],
    ['years', summary.years.join(', ')],
  ]);
  if (summary.dry_run) ctx.out.notice('dry run: nothing was written');
}

export async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  if (opts.wallet !== undefined && opts.walletId !== undefined && opts.wallet !== opts.walletId) {
    throw new TxaError('USAGE_ERROR', `--wallet and --wallet-id name different wallets ('${opts.wallet}', '${opts.walletId}'); give one`, {
      field: 'wallet-id',
    });
  }
  if (opts.format === BROKER_FORMAT) return runBrokerLines(ctx, opts);
  const format = choice('format', opts.format, IMPORT_FORMATS)!;
  const { isAddress } = await import('../../../importers/fields.js');
  if (opts.tokenAddress !== undefined && !isAddress(opts.tokenAddress)) {
    throw new TxaError('USAGE_ERROR', `--token-address must be a 0x address of 40 hex digits, got '${opts.tokenAddress}'`, { field: 'token-address' });
  }
  const ws = ctx.workspace();
  const rules = await rulesHook(opts.rules, opts.dryRun);
  const imports = await (await ctx.local('import')).imports();
  const skipped: Skipped[] = [];
  let summary: ImportSummary;
  try {
    summary = await imports.importFile(ws, opts.file, {
      walletId: opts.walletId ?? opts.wallet,
      format,
      tokenAddress: opts.tokenAddress,
      dryRun: opts.dryRun,
      onSkipped: (s) => skipped.push(s),
      rules,
    });
  } catch (thrown) {
    const err = await withDetectedFormat(thrown, opts.file, format);
    if (reportBadRows(ctx.out, err)) return;
    throw err;
  }
  if (ctx.out.json) ctx.out.body({ success: true, data: rules ? { ...summary, rules: rules.take() } : summary });
  else printSummary(ctx.out, summary, skipped, rules);
}

export function register(program: Command): void {
  program
    .command('import')
    .description('import transactions from a file (local only; see docs/import.md)')
    .argument(
      '<file>',
      'txa JSON/NDJSON/CSV export, an Etherscan-family CSV export, a Koinly or rotki CSV, or an exchange history (Coinbase, Kraken, Binance, Gemini CSV or XLSX, exchange-csv)',
    )
    .option('--wallet <id>', 'wallet the rows belong to (needed for explorer, Koinly, rotki and exchange files)')
    .option('--wallet-id <id>', 'the same as --wallet')
    .option(
      '--format <format>',
      `${IMPORT_FORMATS.join(', ')}, or ${BROKER_FORMAT} (a broker's Form 1099-DA lines for --wallet; never detected) (default auto: detected from the content)`,
      'auto',
    )
    .option(
      '--token-address <0x…>',
      "the token of a token-tracker export (one token's transfers, all holders), which names it only in the download's file name",
    )
    .option('--dry-run', 'validate and count without writing anything')
    .option('--rules <file>', "apply a rules file (docs/rules.md) to the new rows, in the import's transaction")
    .addHelpText(
      'after',
      `
Explorer CSVs: a normal-transactions file without Txhash, From or To (a column subset) imports
with a synthetic hash per row and the wallet's side read from Value_IN/Value_OUT. A token-tracker
file whose name lost the token's 0x address needs --token-address. Details: docs/import.md.`,
    )
    .action(action<Omit<ImportOptions, 'file'>>((ctx, flags, [file]) => run(ctx, { ...flags, file: file! })));
}

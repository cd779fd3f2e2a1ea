/**
 * `txa demo`: the README's first command. Loads the shipped demo workspaces into the local
 * ledger (idempotently), makes the main one the profile's default when none is set, prints a
 * short tour, writes a CSV, a JSON and a PDF summary report into DIR, and says what to try next.
 */
import type { Command } from 'commander';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Backend } from '../../../core/backend.js';
import { expandPeriod } from '../../../core/dates.js';
import type { ExportFormat, Tag, TransactionPage, Workspace } from '../../../core/types.js';
import type { DemoService } from '../../../local/services.js';
import { writeProfileValue } from '../../config.js';
import type { Context } from '../../context.js';
import type { Output } from '../../output.js';
import { action } from '../../run.js';
import { printTags, printTransactions, printWorkspaces } from '../../views.js';
import { pathNote } from '../../on-path.js';

export interface DemoOptions {
  /** Folder for the report files. */
  dir: string;
}

type Loaded = ReturnType<DemoService['load']>;

const REPORTS: { format: ExportFormat; report_type?: string; file: string }[] = [
  { format: 'csv', file: 'transactions.csv' },
  { format: 'json', file: 'transactions.json' },
  { format: 'pdf', report_type: 'summary', file: 'summary.pdf' },
];

interface ReportFile {
  format: ExportFormat;
  report_type?: string;
  export_id: string;
  path: string;
  bytes: number;
}

/** What the tour shows of the main workspace, read before anything is printed. */
interface Tour {
  main: Workspace;
  /** `txa`, or `txa -w ID` when another workspace is selected. */
  txa: string;
  recent: TransactionPage;
  /** `YYYY-MM`, the last full month, and its days. */
  month: string;
  range: { start_date: string; end_date: string };
  monthPage: TransactionPage;
  tags: Tag[];
  dir: string;
}

/** `YYYY-MM` of the last whole month up to a timestamp: its own month when it falls on the month's last day. */
function lastFullMonth(timestamp: string): string {
  const d = new Date(timestamp);
  const endsMonth = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate() === d.getUTCDate();
  const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (endsMonth ? 0 : 1), 1));
  return month.toISOString().slice(0, 7);
}

async function writeReports(backend: Backend, ws: string, name: string, dir: string): Promise<ReportFile[]> {
  mkdirSync(dir, { recursive: true });
  const files: ReportFile[] = [];
  for (const r of REPORTS) {
    const body = {
      workspace_id: ws,
      format: r.format,
      ...(r.report_type ? { report_type: r.report_type, options: { pdf_title: `${name} — demo report` } } : {}),
    };
    const rec = await backend.createExport(ws, body);
    const { path, bytes } = await backend.downloadExport(ws, rec.id, join(dir, r.file));
    files.push({ format: r.format, ...(r.report_type ? { report_type: r.report_type } : {}), export_id: rec.id, path, bytes });
  }
  return files;
}

/** Says what the load did, and makes the main workspace the profile's default when it has none. */
async function announce(ctx: Context, loaded: Loaded): Promise<void> {
  for (const l of loaded) {
    const dup = l.duplicates > 0 ? ` (${l.duplicates} already in the ledger)` : '';
    ctx.out.notice(
      `${l.created ? 'Created' : 'Reused'} workspace ${l.workspace.id} "${l.workspace.name}" (${l.workspace.tier}): imported ${l.imported} transactions${dup}.`,
    );
  }
  const main = loaded[0]!.workspace;
  if (!ctx.profile.workspace) {
    await writeProfileValue(ctx.profileName, 'workspace', main.id);
    ctx.out.notice(`Profile '${ctx.profileName}' had no default workspace; it now uses ${main.id}.`);
  }
}

async function readTour(ctx: Context, backend: Backend, main: Workspace, dir: string): Promise<Tour> {
  const selected = ctx.globals.workspace || process.env.TXA_WORKSPACE || ctx.profile.workspace || main.id;
  const recent = await backend.listTransactions(main.id, { workspace_id: main.id, limit: '10' });
  const month = lastFullMonth(recent.data[0]!.timestamp);
  const range = expandPeriod(month, new Date());
  const monthPage = await backend.listTransactions(main.id, { workspace_id: main.id, ...range, limit: '1' });
  const tags = await backend.listTags(main.id);
  return { main, txa: selected === main.id ? 'txa' : `txa -w ${main.id}`, recent, month, range, monthPage, tags, dir: resolve(dir) };
}

/** The tour on stdout, the reports written between its month summary and their table. */
async function printTour(out: Output, backend: Backend, loaded: Loaded, t: Tour): Promise<void> {
  const heading = (text: string) => {
    out.line();
    out.heading(text);
  };
  out.heading('Demo workspaces');
  printWorkspaces(
    out,
    loaded.map((l) => l.workspace),
  );
  heading(`Tags of ${t.main.name}`);
  printTags(out, t.tags);
  heading(`Last 10 transactions of ${t.main.name} (of ${t.recent.pagination.total})`);
  printTransactions(out, t.recent.data);
  heading(`Summary of ${t.month}, the last full month`);
  printMonth(out, t.range, t.monthPage);
  const files = await writeReports(backend, t.main.id, t.main.name, t.dir);
  heading(`Reports of ${t.main.name} in ${t.dir}`);
  out.table(
    [{ header: 'FORMAT' }, { header: 'FILE', fit: 'middle' }, { header: 'BYTES', align: 'right' }],
    files.map((f) => [f.report_type ? `${f.format} (${f.report_type})` : f.format, f.path, f.bytes]),
  );
  heading('Try next');
  const note = pathNote();
  if (note) out.line(note);
  for (const cmd of [
    `${t.txa} tx list --period ${t.month}`,
    `${t.txa} tx list --chain arbitrum --sort amount_desc --limit 5`,
    `${t.txa} tx list --has-tags false --period ${t.month.slice(0, 4)}`,
    `${t.txa} tags list`,
    `${t.txa} wallet list`,
    `${t.txa} export create --format pdf --report-type tax --period ${t.month.slice(0, 4)}`,
    `txa -w ${loaded[1]?.workspace.id ?? t.main.id} tx list --period ${t.month}`,
  ]) {
    out.line(`  ${cmd}`);
  }
}

function printMonth(out: Output, range: { start_date: string; end_date: string }, page: TransactionPage): void {
  const s = page.summary;
  out.record([
    ['period', `${range.start_date} to ${range.end_date}`],
    ['transactions', s.transaction_count],
    ['inflow', out.money(s.total_inflow)],
    ['outflow', out.money(s.total_outflow)],
    ['net', out.money(s.net_flow)],
  ]);
}

export async function run(ctx: Context, opts: DemoOptions): Promise<void> {
  const loaded = (await (await ctx.local('demo')).demo()).load();
  const main = loaded[0]!.workspace;
  await announce(ctx, loaded);
  const backend = await ctx.backend();
  const tour = await readTour(ctx, backend, main, opts.dir);
  if (!ctx.out.json) return printTour(ctx.out, backend, loaded, tour);
  const files = await writeReports(backend, main.id, main.name, tour.dir);
  const workspaces = loaded.map((l) => ({ ...l.workspace, imported: l.imported, duplicates: l.duplicates }));
  ctx.out.body({ success: true, data: { workspace_id: main.id, workspaces, imported: loaded.reduce((s, l) => s + l.imported, 0), files } });
}

export function register(program: Command): void {
  program
    .command('demo')
    .description('load the demo workspaces into the local ledger, tour them, and write CSV, JSON and PDF reports (local only)')
    .option('--dir <dir>', 'folder for the report files', 'txa-demo')
    .action(action<DemoOptions>((ctx, flags) => run(ctx, flags)));
}

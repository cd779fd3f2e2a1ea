/** `txa tx list`: a filtered page of transactions, or every page with `--all`, and the totals of the whole filter. */
import type { Command } from 'commander';
import type { Backend } from '../../../core/backend.js';
import type { DateRange } from '../../../core/dates.js';
import { MAX_LIMIT } from '../../../core/filters.js';
import type { QueryParams, Transaction, TransactionPage } from '../../../core/types.js';
import type { Context } from '../../context.js';
import { addFilterOptions, dateRange, type FilterFlags } from '../../filter-flags.js';
import { action, list } from '../../run.js';
import { tagResolver } from '../../tag-flags.js';
import { printPageFooter, printTransactions } from '../../views.js';

export interface ListOptions extends FilterFlags {
  walletId?: string;
  hasNotes?: string;
  sort?: string;
  page?: string;
  limit?: string;
  all?: boolean;
}

/** Walks every page at the largest page size; the summary is the first page's (the whole filter's). */
async function allPages(backend: Backend, ws: string, query: QueryParams): Promise<TransactionPage> {
  const data: Transaction[] = [];
  let first: TransactionPage | undefined;
  for (let page = 1; ; page++) {
    const res = await backend.listTransactions(ws, { ...query, page: String(page), limit: String(MAX_LIMIT) });
    first ??= res;
    data.push(...res.data);
    if (page >= res.pagination.pages) break;
  }
  const total = first.pagination.total;
  return { data, pagination: { total, page: 1, pages: total > 0 ? 1 : 0, limit: Math.max(total, 1) }, summary: first.summary };
}

/** The flags as the API's query string; tag names resolved to ids. */
async function queryOf(backend: Backend, ws: string, o: ListOptions, { start_date, end_date }: Partial<DateRange>): Promise<QueryParams> {
  const tagIds = o.tagIds === undefined ? undefined : (await tagResolver(backend, ws)(list(o.tagIds)!, 'tag-ids')).join(',');
  return {
    workspace_id: ws,
    wallet_id: o.walletId,
    chain: o.chain,
    token: o.token,
    direction: o.direction,
    tag_ids: tagIds,
    start_date,
    end_date,
    min_amount: o.minAmount,
    max_amount: o.maxAmount,
    has_tags: o.hasTags,
    has_notes: o.hasNotes,
    internal: o.internal,
    include_spam: o.includeSpam ? 'true' : undefined,
    sort: o.sort,
    page: o.page,
    limit: o.limit,
  };
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const range = dateRange(opts);
  const backend = await ctx.backend();
  const query = await queryOf(backend, ws, opts, range);
  const result = opts.all ? await allPages(backend, ws, query) : await backend.listTransactions(ws, query);
  if (ctx.out.json) {
    ctx.out.body({ success: true, ...result });
    return;
  }
  printTransactions(ctx.out, result.data);
  printPageFooter(ctx.out, result, Boolean(opts.all));
}

export function register(parent: Command): void {
  const cmd = parent.command('list').description('a filtered page of transactions, with pagination and the totals of the whole filter');
  cmd.option('--wallet-id <id>', 'only this wallet');
  addFilterOptions(cmd)
    .option('--has-notes <bool>', 'true: with notes only; false: without notes')
    .option('--sort <sort>', 'timestamp_desc (default), timestamp_asc, amount_desc or amount_asc')
    .option('--page <n>', 'page number (default 1)')
    .option('--limit <n>', 'rows per page, 1 to 200 (default 50)')
    .option('--all', 'walk every page (with --json: one document holding every row)')
    .action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}

/**
 * `--page` and `--limit` on the lists that come whole by default (tags, webhooks, keys, rates,
 * workspaces): docs/server.md "API decisions". The page is cut as the API cuts
 * it (core/pagination.ts pageOfList), so `--json` prints the body `GET …?page=&limit=` answers.
 */
import type { Command } from 'commander';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, pageOfList } from '../core/pagination.js';

export interface PageFlags {
  page?: string;
  limit?: string;
}

export function withPageFlags(cmd: Command): Command {
  return cmd
    .option('--page <n>', `page number (with it or --limit, ${LIST_LIMIT_DEFAULT} per page)`)
    .option('--limit <n>', `per page, 1 to ${LIST_LIMIT_MAX} (default: the whole list)`);
}

/** The success body of one page of `items` (all of them without --page/--limit). */
export function listPage<T>(items: T[], o: PageFlags) {
  return { success: true as const, ...pageOfList(items, { page: o.page, limit: o.limit }) };
}

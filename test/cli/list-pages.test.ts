/**
 * docs/server.md "API decisions": the lists that come whole by default (tags,
 * webhooks, keys, rates, workspaces) take them too and then answer one page with its pagination.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';

let s: Sandbox;

beforeAll(async () => {
  s = sandbox();
  expect((await s.txa(['workspace', 'create', 'Books', '--tier', 'pro'])).exitCode).toBe(0);
  const ws = (await s.json(['workspace', 'list'])).data[0].id;
  s.env.TXA_WORKSPACE = ws;
  for (const name of ['Alpha', 'Beta', 'Gamma']) expect((await s.txa(['tags', 'create', '--name', name, '--type', 'neutral'])).exitCode).toBe(0);
  for (const name of ['ci', 'backup', 'audit']) expect((await s.txa(['keys', 'create', '--name', name])).exitCode).toBe(0);
  for (const path of ['a', 'b', 'c']) expect((await s.txa(['webhooks', 'add', '--url', `https://example.com/${path}`])).exitCode).toBe(0);
  writeFileSync(join(s.dir, 'rates.csv'), 'date,currency,rate\n2024-01-01,EUR,0.9\n2024-01-02,EUR,0.91\n2024-01-03,EUR,0.92\n');
  expect((await s.txa(['rates', 'import', 'rates.csv'])).exitCode).toBe(0);
  for (const name of ['Two', 'Three']) expect((await s.txa(['workspace', 'create', name])).exitCode).toBe(0);
});

describe('--page and --limit on whole lists', () => {
  for (const noun of ['tags', 'keys', 'webhooks', 'rates', 'workspace']) {
    it(`${noun} list: whole by default; one page with its pagination when asked; a limit above the maximum is USAGE_ERROR, exit 2`, async () => {
      const all = await s.json([noun, 'list']);
      expect(all.data).toHaveLength(3);
      expect(all.pagination).toBeUndefined();
      const second = await s.json([noun, 'list', '--limit', '2', '--page', '2']);
      expect(second).toEqual({ success: true, data: [all.data[2]], pagination: { total: 3, page: 2, pages: 2, limit: 2 } });
      const rows = (await s.txa([noun, 'list', '--limit', '1'])).stdout.trim().split('\n');
      expect(rows).toHaveLength(1);
      const bad = await s.txa([noun, 'list', '--limit', '101']);
      expect([bad.exitCode, bad.stderr]).toEqual([2, "error: USAGE_ERROR (limit): --limit must be a whole number from 1 to 100, got '101'"]);
    });
  }
});

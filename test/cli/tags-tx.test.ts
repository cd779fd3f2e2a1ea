/** tags and tx commands as a user runs them: output modes, JSON bodies, error lines and exit codes. */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { amountKey } from '../../src/core/money.js';
import { openDb, writeTx } from '../../src/store/db.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';

let s: Sandbox;
let ws: string;
let wallet: string;
let txIds: string[];

/** Seeds transactions through the store (rollups included) into the ledger file; import has its own tests. */
function seed(path: string, workspaceId: string, walletId: string): string[] {
  const db = openDb(path);
  const rows = ['1.5', '0.25', '10', '0.000000000000000001', '3'].map((amount, i) => ({
    id: `tx_seed${i}`,
    workspace_id: workspaceId,
    wallet_id: walletId,
    chain: 'ethereum',
    tx_hash: `0x${String(i).repeat(64)}`,
    transfer_key: 't',
    from_address: '0xa',
    to_address: '0xb',
    token_symbol: 'ETH',
    token_address: null,
    token_decimals: 18,
    amount,
    amount_key: amountKey(amount),
    fiat_cents: 1000 * (i + 1),
    direction: i % 2 ? 'outflow' : 'inflow',
    type: 'transfer',
    ts: Date.UTC(2025, 0, 10 + i) / 1000,
    notes: null,
  }));
  writeTx(db, () => insertTransactions(db, rows, 0));
  db.close();
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  s = sandbox();
  ws = (await s.json(['workspace', 'create', 'Books', '--tier', 'pro'])).data.id;
  s.env.TXA_WORKSPACE = ws;
  wallet = (await s.json(['wallet', 'add', '--address', '0x00000000000000000000000000000000000000b0', '--chain', 'ethereum', '--label', 'Main'])).data.id;
  txIds = seed(s.env.TXA_DB!, ws, wallet);
});

describe('tags', () => {
  it('create prints the API body with --json; list is TSV without a TTY', async () => {
    const created = await s.json(['tags', 'create', '--name', 'Café & meals', '--type', 'expense']);
    expect(created).toMatchObject({ success: true, data: { name: 'Café & meals', type: 'expense', color: '#EF4444', usage_count: 0, workspace_id: ws } });
    const r = await s.txa(['tags', 'list']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${created.data.id}\tCafé & meals\texpense\t#EF4444\t0\t`); // execa strips the final newline
  });

  it.each([
    // A value no flag takes is a usage error naming the flag and the value (docs/cli.md).
    [['--name', 'x', '--type', 'gift'], "error: USAGE_ERROR (type): --type must be one of income, expense, neutral, got 'gift'", 2],
    [['--name', 'x', '--type', 'income', '--color', 'green'], "error: USAGE_ERROR (color): --color must be a hex colour #RRGGBB, got 'green'", 2],
    [['--name', 'x'.repeat(51), '--type', 'income'], 'error: INVALID_FIELD (name): ', 1],
    [['--name', 'CAFÉ & MEALS', '--type', 'income'], 'error: TAG_ALREADY_EXISTS (name): ', 1],
    [['--type', 'income'], 'error: USAGE_ERROR (name): --name is required when not running interactively', 2],
  ])('create %j fails with one line and exit %i', async (args, line, code) => {
    const r = await s.txa(['tags', 'create', ...(args as string[])]);
    expect(r.stderr.startsWith(line as string)).toBe(true);
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
  });

  it('with --json a failure prints the error body on stderr', async () => {
    const r = await s.txa(['tags', 'create', '--name', 'y', '--type', 'bad', '--json']);
    expect(JSON.parse(r.stderr)).toEqual({
      success: false,
      error: { code: 'USAGE_ERROR', message: "--type must be one of income, expense, neutral, got 'bad'", field: 'type' },
    });
    const taken = await s.txa(['tags', 'create', '--name', 'x'.repeat(51), '--type', 'income', '--json']);
    expect(JSON.parse(taken.stderr).error).toMatchObject({ code: 'INVALID_FIELD', field: 'name' });
    expect(r.stdout).toBe('');
  });

  it('delete needs --yes without a TTY, then removes the tag from transactions', async () => {
    const tag = (await s.json(['tags', 'create', '--name', 'Temp', '--type', 'neutral'])).data;
    await s.json(['tx', 'tag', txIds[0]!, tag.id]);
    const refused = await s.txa(['tags', 'delete', tag.id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--yes required/);
    expect((await s.json(['tags', 'delete', tag.id, '--yes'])).data).toEqual({ id: tag.id, deleted: true });
    expect((await s.json(['tx', 'get', txIds[0]!])).data.tags).toEqual([]);
  });

  it('a missing workspace is a usage error naming the three ways to set it', async () => {
    // `workspace create` above made its workspace the profile's default: a profile without one.
    const none = { TXA_WORKSPACE: '', TXA_CONFIG_DIR: join(s.dir, 'no-profile') };
    const r = await s.txa(['tags', 'list'], { env: none });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/-w\/--workspace/);
    expect(r.stderr).toMatch(/TXA_WORKSPACE/);
    expect(r.stderr).toMatch(/txa workspace use/);
    // With --json the error body is all a script sees, so its message names them too.
    const j = await s.txa(['tags', 'list', '--json'], { env: none });
    expect(j.exitCode).toBe(2);
    const { error } = JSON.parse(j.stderr);
    expect(error).toMatchObject({ code: 'USAGE_ERROR', field: 'workspace' });
    for (const way of ['-w/--workspace', 'TXA_WORKSPACE', "profile 'default'", 'txa workspace use ID', 'txa config set workspace ID'])
      expect(error.message).toContain(way);
  });
});

describe('tx', () => {
  it('list --json is the API body with pagination and summary', async () => {
    const body = await s.json(['tx', 'list', '--limit', '2']);
    expect(body.success).toBe(true);
    expect(body.data.map((t: { id: string }) => t.id)).toEqual(['tx_seed4', 'tx_seed3']);
    expect(body.pagination).toEqual({ total: 5, page: 1, pages: 3, limit: 2 });
    expect(body.summary).toEqual({ total_inflow: 90, total_outflow: 60, net_flow: 30, transaction_count: 5 });
  });

  it('--all walks every page into one document with the whole summary', async () => {
    const body = await s.json(['tx', 'list', '--all', '--sort', 'amount_asc']);
    expect(body.data.map((t: { amount: string }) => t.amount)).toEqual(['0.000000000000000001', '0.25', '1.5', '3', '10']);
    expect(body.summary.transaction_count).toBe(5);
  });

  it('filters by amount range exactly and by period', async () => {
    const body = await s.json(['tx', 'list', '--min-amount', '0.25', '--max-amount', '3', '--sort', 'amount_desc']);
    expect(body.data.map((t: { amount: string }) => t.amount)).toEqual(['3', '1.5', '0.25']);
    expect((await s.json(['tx', 'list', '--period', '2025-01'])).pagination.total).toBe(5);
    expect((await s.json(['tx', 'list', '--period', '2024'])).pagination.total).toBe(0);
  });

  it('rows are TSV on a pipe, with the totals on stderr', async () => {
    const r = await s.txa(['tx', 'list', '--limit', '1']);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stdout.split('\t')[1]).toBe('tx_seed4');
    expect(r.stderr).toMatch(/page 1 of 5 · 5 transactions · inflow 90.00 · outflow 60.00 · net 30.00/);
  });

  it.each([
    // A value no flag takes: USAGE_ERROR naming the flag and the value, exit 2; what the data refuses: exit 1 (docs/cli.md).
    [['--start-date', '2024-1-1'], 'USAGE_ERROR (start-date)', /--start-date must be a real day YYYY-MM-DD, got '2024-1-1'/, 2],
    [['--start-date', '2024/01/01'], 'USAGE_ERROR (start-date)', /YYYY-MM-DD/, 2],
    [['--end-date', '2024-02-30'], 'USAGE_ERROR (end-date)', /YYYY-MM-DD, got '2024-02-30'/, 2],
    [['--limit', '0'], 'USAGE_ERROR (limit)', /1 to 200/, 2],
    [['--limit', '201'], 'USAGE_ERROR (limit)', /1 to 200/, 2],
    [['--limit', 'abc'], 'USAGE_ERROR (limit)', /1 to 200/, 2],
    [['--chain', 'solana'], 'USAGE_ERROR (chain)', /ethereum/, 2],
    [['--direction', 'up'], 'USAGE_ERROR (direction)', /inflow/, 2],
    [['--sort', 'best'], 'USAGE_ERROR (sort)', /timestamp_desc/, 2],
    [['--min-amount', 'lots'], 'USAGE_ERROR (min-amount)', /number/, 2],
    [['--max-amount', '1e99'], 'USAGE_ERROR (max-amount)', /at most 78 integer digits/, 2],
    [['--start-date', '2025-02-01', '--end-date', '2025-01-01'], 'INVALID_DATE_RANGE (end-date)', /before/, 1],
    [['--wallet-id', 'wal_nope'], 'WALLET_NOT_FOUND (wallet-id)', /wal_nope/, 1],
    [['--period', '2025-01', '--start-date', '2025-01-01'], 'USAGE_ERROR (period)', /cannot be combined/, 2],
    [['--period', 'soon'], 'USAGE_ERROR (period)', /--period must be one of/, 2],
  ])('list %j → %s', async (args, head, message, code) => {
    const r = await s.txa(['tx', 'list', ...(args as string[])]);
    expect(r.stderr).toMatch(new RegExp(`^error: ${(head as string).replace(/[()]/g, '\\$&')}: `));
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.exitCode).toBe(code);
  });

  it('update sets notes and adds/removes tags in one call', async () => {
    const a = (await s.json(['tags', 'create', '--name', 'Salary', '--type', 'income'])).data.id;
    const b = (await s.json(['tags', 'create', '--name', 'Bonus', '--type', 'income'])).data.id;
    await s.json(['tx', 'tag', txIds[1]!, a]);
    const tx = (await s.json(['tx', 'update', txIds[1]!, '--notes', 'Invoice 42 — 日本', '--add-tag', b, '--remove-tag', a])).data;
    expect(tx.notes).toBe('Invoice 42 — 日本');
    expect(tx.tags.map((t: { name: string }) => t.name)).toEqual(['Bonus']);
    expect((await s.json(['tx', 'list', '--has-notes', 'true'])).data.map((t: { id: string }) => t.id)).toEqual([txIds[1]]);
    expect((await s.json(['tx', 'list', '--tag-ids', `${b},tag_unknown`])).pagination.total).toBe(1);
    const events = (await s.json(['events', 'list', '--type', 'transaction.tagged'])).data;
    expect(events.length).toBeGreaterThanOrEqual(2);
  });

  it('attach stores the file and reports its size', async () => {
    const file = join(s.dir, 'receipt.txt');
    writeFileSync(file, 'paid in full');
    const att = (await s.json(['tx', 'attach', txIds[2]!, file])).data;
    expect(att).toMatchObject({ file_name: 'receipt.txt', file_size: 12 });
    expect((await s.json(['tx', 'get', txIds[2]!])).data.attachments).toHaveLength(1);
    const missing = await s.txa(['tx', 'attach', txIds[2]!, join(s.dir, 'nope.pdf')]);
    expect(missing.exitCode).toBe(1);
  });

  it('get of an unknown id is TRANSACTION_NOT_FOUND, exit 1', async () => {
    const r = await s.txa(['tx', 'get', 'tx_nope']);
    expect(r.stderr).toMatch(/^error: TRANSACTION_NOT_FOUND: /);
    expect(r.exitCode).toBe(1);
  });

  it('unknown commands and flags are usage errors (exit 2)', async () => {
    expect((await s.txa(['tx', 'frobnicate'])).exitCode).toBe(2);
    expect((await s.txa(['tx', 'list', '--colour'])).exitCode).toBe(2);
  });
});

/**
 * Tag flags take names as well as ids (docs/architecture.md "Tags by name"): `tx update --add-tag/--remove-tag`,
 * `tx tag`/`untag`, `tx list --tag-ids`, `export create --tag-ids`, and the tag of `tags update`
 * and `tags delete`, run as a user runs them.
 * Requests carry ids; an unknown name is TAG_NOT_FOUND with the flag as field and changes
 * nothing; a name two tags of a remote service answer to is a usage error naming both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addTxs, addWallets } from '../exports/seed.js';

let s: Sandbox;
let txIds: string[];
let payroll: string;
let gas: string;

const tagNames = async (id: string) => (await s.json(['tx', 'get', id])).data.tags.map((t: { name: string }) => t.name).sort();

beforeAll(async () => {
  s = sandbox();
  const engine = Engine.open(s.env.TXA_DB!);
  const ws = createWorkspace(engine, { name: 'Names', tier: 'pro' }).id;
  const wallets = addWallets(engine, ws, ['Main']);
  txIds = addTxs(engine, ws, wallets, [
    { wallet: 0, day: '2025-01-02', amount: '1', fiat: '10.00', direction: 'inflow' },
    { wallet: 0, day: '2025-01-03', amount: '2', fiat: '20.00', direction: 'outflow' },
    { wallet: 0, day: '2025-01-04', amount: '3', fiat: '30.00', direction: 'inflow' },
  ]);
  engine.close();
  s.env.TXA_WORKSPACE = ws;
  payroll = (await s.json(['tags', 'create', '--name', 'Payroll', '--type', 'income'])).data.id;
  gas = (await s.json(['tags', 'create', '--name', 'Gas', '--type', 'expense'])).data.id;
  // A tag named like Gas's id: the id still means Gas.
  await s.json(['tags', 'create', '--name', gas, '--type', 'neutral']);
}, 30_000);

describe('tag names on the local ledger', () => {
  it('tx update --add-tag/--remove-tag take names in any case; the JSON body carries ids', async () => {
    const body = await s.json(['tx', 'update', txIds[0]!, '--add-tag', 'payroll', '--add-tag', 'GAS']);
    expect(body.data.tags.map((t: { id: string }) => t.id).sort()).toEqual([payroll, gas].sort());
    await s.json(['tx', 'update', txIds[0]!, '--remove-tag', ' Gas ']);
    expect(await tagNames(txIds[0]!)).toEqual(['Payroll']);
  });

  it('tx tag / untag take names and ids mixed; an id is the tag with that id, not its namesake', async () => {
    await s.json(['tx', 'tag', txIds[1]!, 'payroll', gas]);
    expect(await tagNames(txIds[1]!)).toEqual(['Gas', 'Payroll']);
    await s.json(['tx', 'untag', txIds[1]!, 'Payroll']);
    expect(await tagNames(txIds[1]!)).toEqual(['Gas']);
  });

  it('tx list --tag-ids takes names; an unknown id keeps the API meaning (matches nothing)', async () => {
    const byName = await s.json(['tx', 'list', '--tag-ids', 'payroll,tag_0000000000000000000a']);
    expect(byName.data.map((t: { id: string }) => t.id)).toEqual([txIds[0]]);
    const piped = await s.txa(['tx', 'list', '--tag-ids', 'Gas']);
    expect(piped.stdout.split('\n').map((l) => l.split('\t')[1])).toEqual([txIds[1]]);
    expect((await s.json(['tx', 'list', '--tag-ids', 'tag_0000000000000000000a'])).pagination.total).toBe(0);
  });

  it.each([
    [['tx', 'update', 'TX', '--add-tag', 'Payrol'], 'add-tag', 'Payrol'],
    [['tx', 'update', 'TX', '--add-tag', 'Gas', '--remove-tag', 'Bonus'], 'remove-tag', 'Bonus'],
    [['tx', 'tag', 'TX', 'Gas', 'Bonus'], 'tags', 'Bonus'],
    [['tx', 'untag', 'TX', 'Payroll', 'Bonus'], 'tags', 'Bonus'],
    [['tx', 'list', '--tag-ids', 'Gas,Bonus'], 'tag-ids', 'Bonus'],
  ])('%j: an unknown name is TAG_NOT_FOUND (%s) and nothing changes', async (args, field, name) => {
    const before = (await s.json(['tx', 'get', txIds[2]!])).data;
    const argv = (args as string[]).map((a) => (a === 'TX' ? txIds[2]! : a));
    const r = await s.txa(argv);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: TAG_NOT_FOUND (${field}): no tag named '${name}' in this workspace\nList tags with: txa tags list`);
    const json = await s.txa([...argv, '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'TAG_NOT_FOUND', field });
    expect((await s.json(['tx', 'get', txIds[2]!])).data).toEqual(before);
  });

  it('tx update --remove-tag of an unknown id is TAG_NOT_FOUND (remove-tag), as tx untag is, and nothing changes', async () => {
    const before = (await s.json(['tx', 'get', txIds[2]!])).data;
    const r = await s.txa(['tx', 'update', txIds[2]!, '--notes', 'x', '--remove-tag', 'tag_0000000000000000000a', '--json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'TAG_NOT_FOUND', field: 'remove-tag', message: 'tag tag_0000000000000000000a not found' });
    expect((await s.json(['tx', 'get', txIds[2]!])).data).toEqual(before);
  });

  it('export create --tag-ids takes names; an unknown name creates no export', async () => {
    await s.json(['export', 'create', '--format', 'json', '--tag-ids', 'payroll', '--out', 'payroll.json']);
    const file = JSON.parse(readFileSync(join(s.dir, 'payroll.json'), 'utf8'));
    expect(file.transactions.map((t: { id: string }) => t.id)).toEqual([txIds[0]]);
    const before = (await s.json(['export', 'list'])).data.length;
    const r = await s.txa(['export', 'create', '--format', 'csv', '--tag-ids', 'Bonus', '--out', 'bonus.csv']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: TAG_NOT_FOUND \(tag-ids\): no tag named 'Bonus'/);
    expect((await s.json(['export', 'list'])).data).toHaveLength(before);
  });
});

describe('tags update and tags delete by name', () => {
  it('take a name in any case as well as an id', async () => {
    const bonus = (await s.json(['tags', 'create', '--name', 'Bonus', '--type', 'income'])).data.id;
    const updated = await s.json(['tags', 'update', ' bonus ', '--name', 'Bonuses']);
    expect(updated.data).toMatchObject({ id: bonus, name: 'Bonuses' });
    expect(await s.json(['tags', 'delete', 'BONUSES', '--yes'])).toEqual({ success: true, data: { id: bonus, deleted: true } });
  });

  it.each([[['tags', 'update', 'Bonuz', '--name', 'X']], [['tags', 'delete', 'Bonuz', '--yes']]])(
    '%j: an unknown name is TAG_NOT_FOUND (id) and no tag changes',
    async (args) => {
      const before = (await s.json(['tags', 'list'])).data;
      const r = await s.txa(args as string[]);
      expect([r.exitCode, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toBe("error: TAG_NOT_FOUND (id): no tag named 'Bonuz' in this workspace\nList tags with: txa tags list");
      expect((await s.json(['tags', 'list'])).data).toEqual(before);
    },
  );
});

describe('a remote service that keeps names apart by case', () => {
  let server: Server;
  let url: string;
  const requests: string[] = [];

  beforeAll(async () => {
    const tags = [
      { id: 'tag_lower', name: 'gas', type: 'expense' },
      { id: 'tag_upper', name: 'GAS', type: 'expense' },
    ];
    server = createServer((req, res) => {
      req.resume();
      if (!req.url?.startsWith('/api/v1/tags')) requests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: req.url?.startsWith('/api/v1/tags') ? tags : [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each([
    [['tx', 'update', 'tx_1', '--add-tag', 'Gas'], 'add-tag'],
    [['tx', 'tag', 'tx_1', 'Gas'], 'tags'],
    [['tx', 'list', '--tag-ids', 'Gas'], 'tag-ids'],
  ])('%j: an ambiguous name is a usage error naming both tags; nothing is sent', async (args, field) => {
    const r = await s.txa(['--base-url', url, ...(args as string[])], { env: { TXA_API_KEY: 'txa_live_x' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: USAGE_ERROR (${field}): tag name 'Gas' is ambiguous: it names tag_lower (gas), tag_upper (GAS); pass the id instead`);
    expect(requests).toEqual([]);
  });

  it('the exact id still names one of them', async () => {
    await s.txa(['--base-url', url, 'tx', 'list', '--tag-ids', 'tag_upper', '--json'], { env: { TXA_API_KEY: 'txa_live_x' } });
    expect(requests).toHaveLength(1);
    expect(new URL(requests[0]!.split(' ')[1]!, url).searchParams.get('tag_ids')).toBe('tag_upper');
  });
});

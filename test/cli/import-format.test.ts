/**
 * `txa import --format F` on a file of another format: the error names the format the file looks
 * like (detected as `--format auto` would) and the flag to pass; nothing is imported.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';

const fixture = (name: string) => join(resolve(import.meta.dirname, '../../fixtures/import'), name);

let s: Sandbox;
let wallet: string;

beforeAll(async () => {
  s = sandbox();
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Formats'])).data.id;
  wallet = (await s.json(['wallet', 'add', '--address', `0x${'d'.repeat(40)}`, '--chain', 'ethereum'])).data.id;
});

const total = async () => (await s.json(['tx', 'list'])).pagination.total;

describe('import: a file that is not the chosen format', () => {
  it.each([
    ['koinly-universal.csv', 'etherscan', 'a Koinly file: try --format koinly'],
    ['rotki-events.csv', 'koinly', 'a rotki events file: try --format rotki'],
    ['etherscan-normal.csv', 'csv', 'an explorer CSV export (Etherscan, BscScan, Arbiscan, Polygonscan): try --format etherscan'],
    ['txa-export.csv', 'json', 'a txa CSV file: try --format csv'],
  ])('%s as --format %s says it looks like %s', async (file, format, looks) => {
    const r = await s.txa(['import', fixture(file), '--wallet', wallet, '--format', format]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: IMPORT_FAILED( \\([^)]*\\))?: .*; the file looks like ${looks.replace(/[().]/g, '\\$&')}$`));
    expect(await total()).toBe(0);
  });

  it('replaces a hint about the wrong format (a token-tracker export needing --token-address)', async () => {
    const r = await s.txa(['import', fixture('koinly-universal.csv'), '--wallet', wallet, '--format', 'etherscan']);
    expect(r.stderr).not.toMatch(/token's contract address/);
    expect(r.stderr.split('\n')).toHaveLength(1);
  });

  it('row errors keep their list, after the line that names the format; --json carries it in the message', async () => {
    const r = await s.txa(['import', fixture('koinly-universal.csv'), '--wallet', wallet, '--format', 'ndjson']);
    const [first, ...rows] = r.stderr.split('\n');
    expect(first).toMatch(/^error: IMPORT_FAILED: \d+ rows are invalid; nothing was imported; the file looks like a Koinly file: try --format koinly$/);
    expect(rows[0]).toMatch(/^ {2}line 1, json: not valid JSON/);
    const json = await s.txa(['import', fixture('koinly-universal.csv'), '--wallet', wallet, '--format', 'ndjson', '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'IMPORT_FAILED', message: expect.stringContaining('try --format koinly') });
    expect(await total()).toBe(0);
  });

  it('a file of the chosen format with bad rows gets no such note', async () => {
    const r = await s.txa(['import', fixture('rotki-events.csv'), '--wallet', wallet, '--format', 'rotki']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toMatch(/looks like/);
  });
});

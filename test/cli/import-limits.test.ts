/**
 * `txa import` on inputs that must be refused quickly and clearly, and on UTF-16: the built binary,
 * as a user runs it. The execa timeouts only stop a hung run; nothing here asserts a duration.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/import/txa-export.csv');
const HEADER = 'date,tx_hash,from_address,to_address,wallet_label,chain,token,amount,fiat_value,direction,type,tags,notes,attachments\n';

let sb: Sandbox;
let wallet: string;

beforeAll(async () => {
  sb = sandbox();
  sb.env.TXA_WORKSPACE = (await sb.json(['workspace', 'create', 'Limits'])).data.id as string;
  wallet = (await sb.json(['wallet', 'add', '--address', '0x1234567890abcdef1234567890abcdef12345678', '--chain', 'ethereum', '--label', 'Main'])).data.id;
});

describe('txa import refuses what it cannot read, without running out of memory', () => {
  it('/dev/zero: exit 1 with one clear line, not a crash', async () => {
    const r = await sb.txa(['import', '/dev/zero', '--wallet', wallet], { timeout: 60_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('error: IMPORT_FAILED (file): the file is binary (a NUL byte at byte 0), not CSV or JSON text');
  });

  it('a 2 MB single line: exit 1 naming the line', async () => {
    const file = join(sb.dir, 'long-line.csv');
    writeFileSync(file, `${HEADER}2024-03-01,0x${'a'.repeat(2 * 1024 * 1024)}\n`);
    const r = await sb.txa(['import', file, '--wallet', wallet], { timeout: 60_000 });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: IMPORT_FAILED \(file\): line 2 is longer than 1 MiB, longer than any CSV row/);
  });

  it('200,000 bad rows: the first 100 listed with the total, 20 of them on a terminal, nothing imported', async () => {
    const file = join(sb.dir, 'bad-rows.csv');
    const row = (i: number) =>
      `2024-03-01,0x${i.toString(16).padStart(64, '0')},0x9999999999999999999999999999999999999999,0x1234567890abcdef1234567890abcdef12345678,Main,ethereum,ETH,bad${i},1.00,inflow,transfer,,,\n`;
    writeFileSync(file, HEADER + Array.from({ length: 200_000 }, (_, i) => row(i)).join(''));
    const json = await sb.txa(['import', file, '--json'], { timeout: 120_000 });
    expect(json.exitCode).toBe(1);
    const { error } = JSON.parse(json.stderr);
    expect(error.message).toBe('200000 rows are invalid; nothing was imported');
    expect(error.error_count).toBe(200_000);
    expect(error.errors).toHaveLength(100);
    expect(error.errors[99]).toEqual({ line: 101, field: 'amount', reason: "not a number: 'bad99'" });
    const human = await sb.txa(['import', file], { timeout: 120_000 });
    const lines = human.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(22);
    expect(lines.at(-1)).toBe('  … and 199980 more');
    expect((await sb.json(['tx', 'list'])).pagination.total).toBe(0);
  });
});

describe('txa import reads UTF-16', () => {
  it('a UTF-16 LE CSV with a byte-order mark imports like its UTF-8 original', async () => {
    const file = join(sb.dir, 'utf16.csv');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(readFileSync(FIXTURE, 'utf8'), 'utf16le')]));
    const body = await sb.json(['import', file, '--dry-run']);
    expect(body.data).toMatchObject({ format: 'csv', imported: 3 });
  });

  it('UTF-16 without a byte-order mark is refused, naming the encoding', async () => {
    const file = join(sb.dir, 'utf16-no-bom.csv');
    writeFileSync(file, Buffer.from(readFileSync(FIXTURE, 'utf8'), 'utf16le'));
    const r = await sb.txa(['import', file]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: IMPORT_FAILED \(file\): the file looks like UTF-16 \(little-endian\) text without a byte-order mark/);
    expect(r.stderr).toMatch(/Save it as UTF-8/);
  });
});

/**
 * Issue 24, item 6 (docs/cli.md "Tables"): every list command, on an 80-column terminal, prints no
 * line wider than 80. The list commands are found by walking the commander tree (every `list`,
 * and the other verbs that print a list), so a new one is covered when it is added; each must
 * print rows here, so the ledger below holds something for each (the demo, then one of each kind
 * the demo lacks). A table whose columns cannot fit prints records; ids stay whole either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/cli/program.js';
import { commandPath } from '../../../src/cli/run.js';
import { Engine } from '../../../src/engine/engine.js';
import { loadDemo } from '../../../src/engine/demo.js';

/** Verbs besides `list` whose output is a list of records. */
const OTHER_LISTS = ['txa members invitations', 'txa wallet assertions', 'txa lots picks'];

function* allCommands(cmd: Command): Generator<Command> {
  for (const sub of cmd.commands) {
    yield sub;
    yield* allCommands(sub);
  }
}

interface Ran {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** `txa WORDS` in this process, stdout a terminal of `width` columns (undefined: a pipe). */
async function txa(words: string[], width?: number): Promise<Ran> {
  const program = await buildProgram(words);
  const ran = { stdout: '', stderr: '' };
  const { stdout, stderr } = process;
  const saved = { out: stdout.write, err: stderr.write, tty: stdout.isTTY, columns: stdout.columns, env: process.env.COLUMNS };
  stdout.write = ((t: string) => ((ran.stdout += t), true)) as typeof stdout.write;
  stderr.write = ((t: string) => ((ran.stderr += t), true)) as typeof stderr.write;
  Object.assign(stdout, { isTTY: width !== undefined, columns: width });
  if (width === undefined) delete process.env.COLUMNS;
  else process.env.COLUMNS = String(width);
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'txa', ...words]);
    return { ...ran, exitCode: Number(process.exitCode ?? 0) };
  } finally {
    Object.assign(stdout, { write: saved.out, isTTY: saved.tty, columns: saved.columns });
    stderr.write = saved.err;
    if (saved.env === undefined) delete process.env.COLUMNS;
    else process.env.COLUMNS = saved.env;
    process.exitCode = before;
  }
}

let dir: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'txa-lists-80-'));
  const db = join(dir, 'ledger.db');
  Object.assign(process.env, { TXA_DB: db, TXA_CONFIG_DIR: join(dir, 'config'), TXA_WORKSPACE: 'ws_demo_acme', NO_COLOR: '1' });
  delete process.env.TXA_BASE_URL;
  const engine = Engine.open(db);
  loadDemo(engine);
  engine.close();
  writeFileSync(join(dir, 'prices.csv'), 'date,token,price\n2026-01-02,ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48,1.0001\n');
  writeFileSync(join(dir, 'rates.csv'), 'date,currency,rate\n2026-01-02,EUR,0.9321\n');
  const seeds = [
    ['config', 'set', 'public_url', 'https://txa.example.com/a/rather/long/path/to/the/server/of/the/firm'],
    ['keys', 'create', '--name', 'ci runner with a long name', '--access', 'read'],
    ['webhooks', 'add', '--url', 'https://hooks.example.com/a/rather/long/path/txa', '--events', 'export.completed'],
    [
      'schedules',
      'create',
      '--name',
      'Monthly CSV for the accountant',
      '--every',
      'monthly',
      '--format',
      'csv',
      '--email',
      'books@accounting-firm.example.com',
    ],
    ['period', 'close', '--through', '2024-11-30', '--note', 'filed with the accountant on 2025-04-10'],
    ['prices', 'import', join(dir, 'prices.csv')],
    ['rates', 'import', join(dir, 'rates.csv')],
    ['tokens', 'spam', 'ethereum:0x00000000000000000000000000000000000000aa'],
    ['members', 'invite', 'a.rather.long.address@accounting-firm.example.com', '--role', 'viewer'],
    // A swap of the demo's Treasury Safe, and its first ETH lot.
    ['lots', 'pick', 'tx_53cb0b4158c36f963a3e4bfb', 'tx_b9abc46ad2e78017bb2b8aa5'],
    ['export', 'create', '--format', 'csv', '--period', '2025-01', '--out', join(dir, 'a-rather-long-file-name-for-the-accountant.csv')],
    ['wallet', 'assert', 'wal_demo_acme_payroll', '--token', 'POL', '--balance', '1', '--at', '2026-01-31'],
  ];
  for (const words of seeds) {
    const r = await txa(words);
    expect([words.join(' '), r.exitCode, r.stderr]).toEqual([words.join(' '), 0, expect.any(String)]);
  }
}, 60_000);

afterAll(() => {
  process.env = savedEnv;
});

describe('every list command at 80 columns', () => {
  it('prints no line wider than 80, and prints rows', async () => {
    const program = await buildProgram([]);
    const lists = [...allCommands(program)].map(commandPath).filter((p) => p.endsWith(' list') || OTHER_LISTS.includes(p));
    expect(lists.length).toBeGreaterThan(15);
    const wide: string[] = [];
    const empty: string[] = [];
    for (const path of lists) {
      const r = await txa(path.split(' ').slice(1), 80);
      if (r.exitCode !== 0 || r.stdout.trim().split('\n').length < 2) empty.push(`${path} → ${r.exitCode} ${r.stderr.trim()}`);
      for (const line of r.stdout.split('\n')) if ([...line].length > 80) wide.push(`${path}: ${line}`);
    }
    expect(wide).toEqual([]);
    expect(empty).toEqual([]);
  }, 60_000);
});

describe('a closed period at 80 columns', () => {
  it('period close prints its digests indented under one heading on a terminal, one `<name> digest` key each in a pipe', async () => {
    const tty = await txa(['period', 'close', '--through', '2024-12-31'], 80);
    expect(tty.exitCode).toBe(0);
    expect(tty.stdout.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
    expect(tty.stdout).toMatch(/^digests +SHA-256/m);
    for (const name of ['rows', 'tax', 'form8949', 'rollforward']) expect(tty.stdout).toMatch(new RegExp(`^  ${name} +[0-9a-f]{64}$`, 'm'));
    const pipe = await txa(['period', 'close', '--through', '2025-01-31']);
    for (const name of ['rows', 'tax', 'form8949', 'rollforward']) expect(pipe.stdout).toMatch(new RegExp(`^${name} digest\\t[0-9a-f]{64}$`, 'm'));
  }, 60_000);
});

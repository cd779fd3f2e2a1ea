/**
 * Issue 24 (docs/cli.md "Files"): one rule for a file the user names that does not exist. A path
 * is free-form, so it is not a usage error: every command that reads a file answers IO_ERROR,
 * exit 1, naming the argument or flag and the path (`cannot read PATH: no such file`), and writes
 * nothing. The commands are found by walking the commander tree (a `<file>` argument or a flag
 * that takes a `<file>`), so a new one is covered when it is added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/cli/program.js';
import { programRun } from './program-run.js';
import { commandPath } from '../../../src/cli/run.js';
import { importOneRow, tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

function* allCommands(cmd: Command): Generator<Command> {
  for (const sub of cmd.commands) {
    yield sub;
    yield* allCommands(sub);
  }
}

/** `txa WORDS` in this process: its exit code and stderr. */
async function txa(words: string[]): Promise<[number, string]> {
  const r = await programRun(words);
  return [r.exitCode, r.stderr];
}

let l: TempLedger;
let wallet: string;
const saved = { ...process.env };
beforeAll(() => {
  l = tempLedger((engine, ws, dir) => {
    wallet = importOneRow(engine, ws, dir);
  });
  writeFileSync(join(l.dir, 'rules.yaml'), 'rules: []\n');
  Object.assign(process.env, { TXA_DB: l.db, TXA_WORKSPACE: l.workspace });
  delete process.env.TXA_BASE_URL;
});
afterAll(() => {
  process.env = saved;
});

describe('a file that does not exist', () => {
  it('is IO_ERROR naming the argument or flag and the path, exit 1, for every command that reads one', async () => {
    const program = await buildProgram([]);
    const missing = join(l.dir, 'no-such-file.csv');
    const cases: { path: string; words: string[]; field: string }[] = [];
    for (const cmd of allCommands(program)) {
      const words = commandPath(cmd).split(' ').slice(1);
      const fileArg = cmd.registeredArguments.some((a) => a.name() === 'file');
      // The other arguments: a wallet for an id (`tx attach` refuses the file before the id), the rest a word.
      const args = cmd.registeredArguments
        .filter((a) => a.required || a.name() === 'ids')
        .map((a) => (a.name() === 'file' ? missing : ['id', 'ids'].includes(a.name()) ? wallet : 'x'));
      if (fileArg) cases.push({ path: commandPath(cmd), words: [...words, ...args], field: 'file' });
      for (const o of cmd.options.filter((o) => /<file>/.test(o.flags))) {
        // The command's own FILE, if it has one, exists: the flag's file is the missing one.
        const own = args.map((a) => (a === missing ? join(l.dir, 'rules.yaml') : a));
        cases.push({ path: commandPath(cmd), words: [...words, ...own, o.long!, missing], field: o.long!.slice(2) });
      }
    }
    expect(cases.map((c) => `${c.path} (${c.field})`).sort()).toEqual([
      'txa import (file)',
      'txa import (rules)',
      'txa lots allocate (specific)',
      'txa lots import (file)',
      'txa prices import (file)',
      'txa rates import (file)',
      'txa rules apply (file)',
      'txa tx attach (file)',
      'txa wallet sync (rules)',
    ]);
    const before = statSync(l.db).mtimeMs;
    const wrong: string[] = [];
    for (const c of cases) {
      const [code, stderr] = await txa(c.words);
      const want = `error: IO_ERROR (${c.field}): cannot read ${missing}: no such file\n`;
      if (code !== 1 || stderr !== want) wrong.push(`${c.words.join(' ')} → ${code} ${stderr}`);
    }
    expect(wrong).toEqual([]);
    expect(statSync(l.db).mtimeMs).toBe(before);
  }, 30_000);
});

/**
 * Issue 24, item 5: one rule for bad flag values (docs/cli.md, "Flag values and exit codes"). The
 * test walks the whole commander tree: every flag that takes a value has a form (src/cli/flag-values.ts)
 * or is deliberately free (FREE_FORM), and each form's refused value, typed on the command line of
 * its command, is USAGE_ERROR naming the flag as typed and echoing the value, exit 2, before any
 * ledger is opened (the ledger path here has no file: reaching it would be LEDGER_NOT_FOUND, exit 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/cli/program.js';
import { programRun } from './program-run.js';
import { commandPath } from '../../../src/cli/run.js';
import { FREE_FORM, formOf } from '../../../src/cli/flag-values.js';

function* allCommands(cmd: Command): Generator<Command> {
  for (const sub of cmd.commands) {
    yield sub;
    yield* allCommands(sub);
  }
}

let dir: string;
const saved = { ...process.env };
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'txa-flag-forms-'));
  Object.assign(process.env, { TXA_DB: join(dir, 'none.db'), TXA_CONFIG_DIR: join(dir, 'config'), TXA_WORKSPACE: 'ws_x', TXA_BASE_URL: '' });
});
afterAll(() => {
  process.env = saved;
});

/** Runs `words` through the program in this process: its exit code and stderr. */
const parse = programRun;

describe('every flag that takes a value', () => {
  it('has a form or is free-form', async () => {
    const program = await buildProgram([]);
    const undecided: string[] = [];
    for (const cmd of allCommands(program)) {
      for (const o of cmd.options) {
        if ((o.required || o.optional) && !formOf(commandPath(cmd), o) && !FREE_FORM.has(o.long!)) undecided.push(`${commandPath(cmd)} ${o.long}`);
      }
    }
    expect(undecided).toEqual([]);
  });

  it("refuses its form's bad value with USAGE_ERROR naming the flag and the value, exit 2, before any ledger", async () => {
    const program = await buildProgram([]);
    const cases: { words: string[]; flag: string; bad: string }[] = [];
    for (const cmd of allCommands(program)) {
      const path = commandPath(cmd);
      // Its required arguments and required flags, with values of their form.
      const args = cmd.registeredArguments.filter((a) => a.required).map(() => 'x');
      const required = cmd.options.filter((o) => o.mandatory).flatMap((o) => [o.long!, good(path, o.long!)]);
      for (const o of cmd.options) {
        const form = (o.required || o.optional) && formOf(path, o);
        if (!form) continue;
        const others = required.filter((_, i) => required[i - (i % 2)] !== o.long);
        cases.push({ words: [...path.split(' ').slice(1), ...args, ...others, o.long!, form.bad], flag: o.long!, bad: form.bad });
      }
    }
    expect(cases.length).toBeGreaterThan(80);
    const wrong: string[] = [];
    for (const c of cases) {
      const r = await parse(c.words);
      const named = r.stderr.includes(`USAGE_ERROR (${c.flag.slice(2)}): ${c.flag} must be `) && r.stderr.includes(`got '${c.bad}'`);
      if (r.exitCode !== 2 || !named) wrong.push(`${c.words.join(' ')} → ${r.exitCode} ${r.stderr.split('\n')[0]}`);
    }
    expect(wrong).toEqual([]);
    expect(existsSync(join(dir, 'none.db'))).toBe(false);
  }, 60_000);
});

/** A value of the form for a required flag. */
function good(path: string, flag: string): string {
  const known: Record<string, string> = {
    '--format': path === 'txa import' ? 'auto' : 'csv',
    '--through': '2024-12-31',
    '--at': '2024-12-31',
    '--balance': '1',
    '--url': 'https://example.com/hook',
    '--every': 'monthly',
    '--role': 'viewer',
  };
  return known[flag] ?? 'x';
}

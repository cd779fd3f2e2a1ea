/** `txa rules apply` run in process (test/helpers/in-process.ts), on a ledger with one inflow and a Salary tag. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTag } from '../../../src/engine/tags.js';
import { run } from '../../../src/cli/commands/rules/apply.js';
import { runInProcess } from '../../helpers/in-process.js';
import { importOneRow, tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

let l: TempLedger;
let globals: { db: string; workspace: string };
let file: string;

beforeAll(() => {
  l = tempLedger((engine, ws, dir) => {
    createTag(engine, ws, { name: 'Salary', type: 'income' });
    importOneRow(engine, ws, dir, { amount: '2', from_address: `0x${'e'.repeat(40)}` });
  });
  globals = { db: l.db, workspace: l.workspace };
  file = join(l.dir, 'rules.yaml');
  writeFileSync(file, 'rules:\n  - name: salary\n    match: {direction: inflow}\n    set: {tags: [Salary]}\n');
  writeFileSync(join(l.dir, 'bad.yaml'), 'rules:\n  - name: x\n    match: {chain: nowhere}\n    set: {notes: n}\n');
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa rules apply, in process', () => {
  it('--dry-run --json: the counts per rule, nothing written', async () => {
    const r = await runInProcess('txa rules apply', run, { file, dryRun: true }, { ...globals, json: true });
    expect([r.exitCode, JSON.parse(r.stdout)]).toEqual([
      0,
      { success: true, data: { dry_run: true, rules: [{ name: 'salary', matched: 1, changed: 1 }], changed: 1 } },
    ]);
  });

  it('in a pipe: a RULE<TAB>MATCHED<TAB>CHANGED row, the total on stderr', async () => {
    const r = await runInProcess('txa rules apply', run, { file }, globals);
    expect(r.stdout.split('\n')[0]).toBe('salary\t1\t1');
    expect(r.stderr).toBe('1 transaction changed\n');
  });

  it('a bad file is INVALID_RULES naming the rule and key, exit 1', async () => {
    const r = await runInProcess('txa rules apply', run, { file: join(l.dir, 'bad.yaml') }, globals);
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^error: INVALID_RULES \(rules\.0\.match\.chain\): /);
  });
});

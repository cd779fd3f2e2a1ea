import { beforeAll, describe, expect, it } from 'vitest';
import * as create from '../../../src/cli/commands/tags/create.js';
import * as list from '../../../src/cli/commands/tags/list.js';
import * as update from '../../../src/cli/commands/tags/update.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

let db: string;
let workspace: string;

beforeAll(() => {
  ({ db, workspace } = tempLedger());
});

describe('txa tags, in process', () => {
  it('create --json prints the API body of the new tag', async () => {
    const r = await runInProcess('txa tags create', create.run, { name: 'Salary', type: 'income' }, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, data: { name: 'Salary', type: 'income', usage_count: 0 } });
    expect(r.stderr).toBe('');
  });

  it('list in a pipe: one tab-separated row per tag', async () => {
    const r = await runInProcess('txa tags list', list.run, {}, { db, workspace });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^tag_\S+\tSalary\tincome\t/m);
  });

  it('update with nothing to change is USAGE_ERROR, exit 2, and nothing on stdout', async () => {
    const r = await runInProcess('txa tags update', update.run, { ref: 'Salary' }, { db, workspace });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: USAGE_ERROR.*nothing to change/);
  });

  it('a tag name with a line feed in an error stays one error line, the line feed shown as \\n', async () => {
    const r = await runInProcess('txa tags update', update.run, { ref: 'a\nb', name: 'x' }, { db, workspace });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe("error: TAG_NOT_FOUND (id): no tag named 'a\\nb' in this workspace\nList tags with: txa tags list\n");
  });

  it('update by name renames the tag', async () => {
    const r = await runInProcess('txa tags update', update.run, { ref: 'Salary', name: 'Wages' }, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).data.name).toBe('Wages');
  });
});

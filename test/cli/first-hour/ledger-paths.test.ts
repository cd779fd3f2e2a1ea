/**
 * Issue 24, items 3 and 4: a read of a ledger path with no file is LEDGER_NOT_FOUND naming the
 * path, and creates nothing (not even its folders); `workspace create` creates the ledger and says
 * so. A profile's default workspace that is not in the selected ledger is named with where it came
 * from and how to change it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run as txList } from '../../../src/cli/commands/tx/list.js';
import { run as wsList } from '../../../src/cli/commands/workspace/list.js';
import { run as wsCreate } from '../../../src/cli/commands/workspace/create.js';
import { run as wsUse } from '../../../src/cli/commands/workspace/use.js';
import { writeProfileValue } from '../../../src/cli/config.js';
import { runInProcess } from '../../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'txa-ledger-paths-'));
  process.env.TXA_CONFIG_DIR = join(dir, 'config');
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('a ledger path with no file', () => {
  it('tx list and workspace list are LEDGER_NOT_FOUND (db), exit 1, and create neither the file nor its folder', async () => {
    const db = join(dir, 'typo', 'ledger.db');
    const listed = await runInProcess('txa tx list', txList, {}, { db, workspace: 'ws_x' });
    expect([listed.exitCode, listed.stdout]).toEqual([1, '']);
    expect(listed.stderr).toMatch(
      new RegExp(`^error: LEDGER_NOT_FOUND \\(db\\): no ledger at ${db.replace(/[.]/g, '\\.')} \\(--db\\); nothing was created\\n.*workspace create`),
    );
    const ws = await runInProcess('txa workspace list', wsList, {}, { db, json: true });
    expect(ws.exitCode).toBe(1);
    expect(JSON.parse(ws.stderr).error).toMatchObject({ code: 'LEDGER_NOT_FOUND', field: 'db' });
    expect(existsSync(join(dir, 'typo'))).toBe(false);
  });

  it('workspace create makes it and says so on stderr', async () => {
    const db = join(dir, 'new', 'ledger.db');
    const r = await runInProcess('txa workspace create', wsCreate, { name: 'Acme', tier: 'free', currency: 'USD' }, { db });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`created ledger ${db}\n`);
    expect(existsSync(db)).toBe(true);
  });
});

describe("the profile's default workspace on another ledger", () => {
  it('WORKSPACE_NOT_FOUND names the profile, the ledger and the way to change it', async () => {
    const first = join(dir, 'first.db');
    const created = await runInProcess('txa workspace create', wsCreate, { name: 'One', tier: 'free', currency: 'USD' }, { db: first, json: true });
    const id = JSON.parse(created.stdout).data.id;
    await writeProfileValue('default', 'workspace', id);
    const second = join(dir, 'second.db');
    await runInProcess('txa workspace create', wsCreate, { name: 'Two', tier: 'free', currency: 'USD' }, { db: second });
    const r = await runInProcess('txa tx list', txList, {}, { db: second });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      `error: WORKSPACE_NOT_FOUND: workspace ${id} not found in ledger ${second} (the default workspace of profile 'default')\n` +
        "The default workspace of profile 'default' is not in this ledger: `txa workspace list` shows its workspaces, `txa workspace use ID` picks one of its workspaces, or pass -w ID.\n",
    );
    // Typed with -w, the id is the user's own: the message stays as it was.
    const typed = await runInProcess('txa tx list', txList, {}, { db: second, workspace: 'ws_typed' });
    expect(typed.stderr).toMatch(/^error: WORKSPACE_NOT_FOUND: workspace ws_typed not found\n/);
    // Typed as an argument (`workspace use ws_other`), it is not the profile's default either.
    const used = await runInProcess('txa workspace use', wsUse, { id: 'ws_other' }, { db: second });
    expect(used.exitCode).toBe(1);
    expect(used.stderr).toMatch(/^error: WORKSPACE_NOT_FOUND: workspace ws_other not found\n/);
    expect(used.stderr).not.toContain('default workspace');
  });
});

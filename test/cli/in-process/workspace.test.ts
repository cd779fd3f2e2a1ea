/** `txa workspace` run in process (test/helpers/in-process.ts) on a real ledger file: through the local workspaces service. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProfile } from '../../../src/cli/config.js';
import * as create from '../../../src/cli/commands/workspace/create.js';
import * as list from '../../../src/cli/commands/workspace/list.js';
import * as update from '../../../src/cli/commands/workspace/update.js';
import * as use from '../../../src/cli/commands/workspace/use.js';
import { runInProcess } from '../../helpers/in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'txa-in-process-'));
const db = join(dir, 'ledger.db');

beforeAll(() => {
  process.env.TXA_CONFIG_DIR = join(dir, 'config');
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa workspace, in process', () => {
  it('create --json prints the workspace; a profile without one adopts it', async () => {
    const r = await runInProcess('txa workspace create', create.run, { name: 'Books', tier: 'pro', currency: 'EUR' }, { db, json: true });
    expect(r.exitCode).toBe(0);
    const { data } = JSON.parse(r.stdout);
    expect(data).toMatchObject({ name: 'Books', tier: 'pro', base_currency: 'EUR' });
    expect(readProfile('default').workspace).toBe(data.id);
    const listed = await runInProcess('txa workspace list', list.run, {}, { db });
    expect(listed.stdout).toMatch(new RegExp(`^${data.id}\\tBooks\\t`, 'm'));
  });

  it('update in a pipe prints the changed row', async () => {
    const id = JSON.parse((await runInProcess('txa workspace list', list.run, {}, { db, json: true })).stdout).data[0].id;
    const r = await runInProcess('txa workspace update', update.run, { id, name: 'Ledger' }, { db });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${id}\\tLedger\\t`, 'm'));
  });

  it('use of an unknown workspace is WORKSPACE_NOT_FOUND, exit 1; a bad rate limit INVALID_FIELD', async () => {
    const r = await runInProcess('txa workspace use', use.run, { id: 'ws_nope' }, { db });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: WORKSPACE_NOT_FOUND/);
    const bad = await runInProcess('txa workspace create', create.run, { name: 'X', tier: 'enterprise', currency: 'USD', rateLimit: 'lots' }, { db });
    expect(bad.stderr).toMatch(/^error: INVALID_FIELD \(rate_limit\)/);
  });
});

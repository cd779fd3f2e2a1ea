import { beforeAll, describe, expect, it } from 'vitest';
import * as create from '../../../src/cli/commands/keys/create.js';
import * as list from '../../../src/cli/commands/keys/list.js';
import * as revoke from '../../../src/cli/commands/keys/revoke.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';

let db: string;
let workspace: string;

beforeAll(() => {
  ({ db, workspace } = tempLedger());
});

describe('txa keys, in process', () => {
  it('create --json prints the record with the key, once', async () => {
    const r = await runInProcess('txa keys create', create.run, { name: 'ci', access: 'read' }, { db, workspace, json: true });
    expect(r.exitCode).toBe(0);
    const { data } = JSON.parse(r.stdout);
    expect(data).toMatchObject({ name: 'ci', access: 'read', revoked_at: null, key: expect.stringMatching(/^txa_live_/) });
    expect(data.key.startsWith(data.prefix)).toBe(true);
  });

  it('create in a pipe: the key alone on stdout, the rest on stderr', async () => {
    const r = await runInProcess('txa keys create', create.run, { access: 'full' }, { db, workspace });
    expect(r.stdout).toMatch(/^txa_live_\S+\n$/);
    expect(r.stderr).toMatch(/^Created full key key_\S+ of member mem_\S+\. Store it now/);
  });

  it('list in a pipe shows prefixes, never keys', async () => {
    const r = await runInProcess('txa keys list', list.run, {}, { db, workspace });
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stdout).toMatch(/^key_\S+\tci\tread\ttxa_live_\S+…\t/m);
  });

  it('an unknown access level is USAGE_ERROR (access), exit 2; revoking an unknown key is KEY_NOT_FOUND', async () => {
    const bad = await runInProcess('txa keys create', create.run, { access: 'admin' }, { db, workspace });
    expect([bad.exitCode, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toMatch(/^error: USAGE_ERROR \(access\)/);
    const unknown = await runInProcess('txa keys revoke', revoke.run, { id: 'key_nope', yes: true }, { db, workspace });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(/^error: KEY_NOT_FOUND/);
  });
});

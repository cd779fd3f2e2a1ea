/** `txa keys` on the local ledger, checked against a real `txa serve`. */
import { afterEach, describe, expect, it } from 'vitest';
import { sandbox } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';

let srv: ServeProcess | undefined;
afterEach(async () => {
  await srv?.stop();
  srv = undefined;
});

describe('txa keys', () => {
  it('creates a key shown once, lists without it, and revokes it at once', async () => {
    const sb = sandbox();
    const ws = (await sb.json(['workspace', 'create', 'Acme'])).data.id;
    const created = await sb.txa(['-w', ws, 'keys', 'create', '--name', 'ci', '--access', 'read']);
    expect(created.exitCode).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^txa_live_[0-9A-Za-z]{32}$/);
    expect(created.stderr).toMatch(/Created read key key_[0-9a-f]+ of member mem_[0-9a-f]+\. Store it now/);
    const list = await sb.json(['-w', ws, 'keys', 'list']);
    expect(list.data).toEqual([expect.objectContaining({ name: 'ci', access: 'read', prefix: key.slice(0, 13), revoked_at: null })]);
    expect(JSON.stringify(list)).not.toContain(key.slice(13));
    const plain = await sb.txa(['-w', ws, 'keys', 'list']);
    expect(plain.stdout).not.toContain(key);

    srv = await startServe(sb.env.TXA_DB!);
    const get = () => fetch(`${srv!.url}/api/v1/tags?workspace_id=${ws}`, { headers: { authorization: `Bearer ${key}` } });
    expect((await get()).status).toBe(200);
    const noYes = await sb.txa(['-w', ws, 'keys', 'revoke', list.data[0].id]);
    expect([noYes.exitCode, noYes.stderr]).toEqual([2, expect.stringContaining('--yes required')]);
    expect((await get()).status).toBe(200);
    const revoked = await sb.json(['-w', ws, 'keys', 'revoke', list.data[0].id, '--yes']);
    expect(revoked.data.revoked_at).toMatch(/Z$/);
    expect((await get()).status).toBe(401);
  });

  it('checks the access level before anything, and refuses a remote backend', async () => {
    const sb = sandbox();
    const ws = (await sb.json(['workspace', 'create', 'Acme'])).data.id;
    const bad = await sb.txa(['-w', ws, 'keys', 'create', '--access', 'admin']);
    expect([bad.exitCode, bad.stderr]).toEqual([2, expect.stringContaining('USAGE_ERROR (access)')]);
    const unknown = await sb.txa(['-w', ws, 'keys', 'revoke', 'key_nope', '--yes']);
    expect([unknown.exitCode, unknown.stderr]).toEqual([1, expect.stringContaining('KEY_NOT_FOUND')]);
    const remote = await sb.txa(['-w', ws, '--base-url', 'http://127.0.0.1:9', 'keys', 'list']);
    expect([remote.exitCode, remote.stderr]).toEqual([2, expect.stringContaining('LOCAL_ONLY')]);
    // `workspace create` made Acme the profile's default: a profile without one.
    const noWs = await sb.txa(['keys', 'list'], { env: { TXA_CONFIG_DIR: `${sb.dir}/no-profile` } });
    expect(noWs.exitCode).toBe(2);
  });
});

/** `txa config` and the precedence of docs/architecture.md "Backends and configuration": flag > environment > profile > default. */
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox } from '../helpers/cli.js';
import { seedLedger, WS } from '../server/seed.js';
import { startServe } from '../server/serve-process.js';

describe('txa config', () => {
  it('sets, gets, lists (key masked), unsets; the file is mode 0600', async () => {
    const sb = sandbox();
    expect((await sb.txa(['config', 'set', 'api_key', 'txa_live_abcdefghijklmnopqrstuvwxyz123456'])).exitCode).toBe(0);
    expect((await sb.txa(['config', 'set', 'base_url', 'http://127.0.0.1:8080'])).exitCode).toBe(0);
    expect((await sb.txa(['config', 'get', 'api_key'])).stdout.trim()).toBe('txa_live_abcdefghijklmnopqrstuvwxyz123456');
    const list = await sb.txa(['config', 'list']);
    expect(list.stdout).toBe('base_url\thttp://127.0.0.1:8080\napi_key\ttxa_live_abcd…');
    expect((await sb.json(['config', 'list'])).data).toEqual({ profile: 'default', values: { base_url: 'http://127.0.0.1:8080', api_key: 'txa_live_abcd…' } });
    expect(statSync(join(sb.env.TXA_CONFIG_DIR!, 'config.json')).mode & 0o777).toBe(0o600);
    expect((await sb.txa(['config', 'unset', 'base_url'])).exitCode).toBe(0);
    const missing = await sb.txa(['config', 'get', 'base_url']);
    expect([missing.exitCode, missing.stdout]).toEqual([1, '']);
    const other = await sb.txa(['--profile', 'work', 'config', 'get', 'api_key']);
    expect(other.exitCode).toBe(2); // no profile 'work' in the file: a usage error (usage-errors.test.ts)
    const bad = await sb.txa(['config', 'set', 'colour', 'red']);
    expect([bad.exitCode, bad.stderr]).toEqual([2, expect.stringContaining("unknown config key 'colour'")]);
    const badUrl = await sb.txa(['config', 'set', 'base_url', 'localhost:8080']);
    expect(badUrl.exitCode).toBe(2);
  });

  it('base URL: --base-url > TXA_BASE_URL > profile', async () => {
    const sb = sandbox();
    await sb.txa(['config', 'set', 'base_url', 'http://127.0.0.1:1']);
    const used = async (args: string[], env: Record<string, string> = {}) =>
      /cannot reach the txa API at (\S+):/.exec(
        (await sb.txa([...args, '-w', 'w', 'tags', 'list'], { env: { ...sb.env, TXA_API_KEY: 'k', ...env } })).stderr,
      )?.[1];
    expect(await used([])).toBe('http://127.0.0.1:1/api/v1');
    expect(await used([], { TXA_BASE_URL: 'http://127.0.0.1:2' })).toBe('http://127.0.0.1:2/api/v1');
    expect(await used(['--base-url', 'http://127.0.0.1:3/v1'], { TXA_BASE_URL: 'http://127.0.0.1:2' })).toBe('http://127.0.0.1:3/api/v1');
  });

  it('workspace: -w > TXA_WORKSPACE > profile; none is a usage error naming all three', async () => {
    const sb = sandbox();
    const named = async (args: string[], env: Record<string, string> = {}) =>
      /workspace (\S+) not found/.exec((await sb.txa([...args, 'tags', 'list'], { env: { ...sb.env, ...env } })).stderr)?.[1];
    const none = await sb.txa(['tags', 'list']);
    expect([none.exitCode, none.stderr]).toEqual([2, expect.stringMatching(/-w\/--workspace.*TXA_WORKSPACE.*txa workspace use/s)]);
    await sb.txa(['workspace', 'create', 'Ledger']); // a read creates no ledger
    await sb.txa(['config', 'set', 'workspace', 'ws_profile']);
    expect(await named([])).toBe('ws_profile');
    expect(await named([], { TXA_WORKSPACE: 'ws_env' })).toBe('ws_env');
    expect(await named(['-w', 'ws_flag'], { TXA_WORKSPACE: 'ws_env' })).toBe('ws_flag');
  });

  it('ledger: --db > TXA_DB > profile db', async () => {
    const sb = sandbox();
    const names = async (args: string[], env: Record<string, string> = {}) =>
      (await sb.json([...args, 'workspace', 'list'], { env: { ...sb.env, ...env } })).data.map((w: { name: string }) => w.name);
    for (const name of ['flag', 'env', 'profile']) await sb.txa(['--db', join(sb.dir, `${name}.db`), 'workspace', 'create', name]);
    await sb.txa(['config', 'set', 'db', join(sb.dir, 'profile.db')]);
    expect(await names([], { TXA_DB: '' })).toEqual(['profile']);
    expect(await names([], { TXA_DB: join(sb.dir, 'env.db') })).toEqual(['env']);
    expect(await names(['--db', join(sb.dir, 'flag.db')], { TXA_DB: join(sb.dir, 'env.db') })).toEqual(['flag']);
  });

  it('API key: TXA_API_KEY, else the profile, else --api-key', async () => {
    const s = seedLedger();
    const good = s.key('read');
    s.engine.close();
    const srv = await startServe(s.path);
    try {
      const sb = sandbox({ TXA_BASE_URL: srv.url });
      const exit = async (args: string[], env: Record<string, string> = {}) =>
        (await sb.txa([...args, '-w', WS, 'tags', 'list'], { env: { ...sb.env, ...env } })).exitCode;
      expect(await exit(['--api-key', good])).toBe(0);
      await sb.txa(['config', 'set', 'api_key', 'txa_live_wrong']);
      expect(await exit(['--api-key', good])).toBe(4); // the profile's key wins over the flag
      await sb.txa(['config', 'set', 'api_key', good]);
      expect(await exit(['--api-key', 'txa_live_wrong'])).toBe(0);
      expect(await exit([], { TXA_API_KEY: 'txa_live_wrong' })).toBe(4); // the environment wins over the profile
      await sb.txa(['config', 'set', 'api_key', 'txa_live_wrong']);
      expect(await exit([], { TXA_API_KEY: good })).toBe(0);
    } finally {
      await srv.stop();
    }
  });
});

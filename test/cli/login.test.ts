/** `txa login` against a real `txa serve`: the key is checked before anything is saved. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, BIN } from '../helpers/cli.js';
import { inTerminal } from '../helpers/terminal.js';
import { seedLedger, WS, OTHER_WS } from '../server/seed.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';

let srv: ServeProcess;
let key: string;
beforeAll(async () => {
  const s = seedLedger();
  key = s.key('read');
  s.engine.close();
  srv = await startServe(s.path);
});
afterAll(() => srv.stop());

describe('txa login', () => {
  it('on a terminal, asks for the base URL, the key (masked) and the workspace, then saves them', async () => {
    const sb = sandbox();
    const { screen } = await inTerminal(`${BIN} login`, {
      env: { TXA_CONFIG_DIR: sb.env.TXA_CONFIG_DIR!, NO_COLOR: '1' },
      answers: [
        { prompt: /Base URL/, line: srv.url },
        { prompt: /API key/, line: key },
        { prompt: /Workspace/, line: WS },
      ],
      until: /exit=\d/,
    });
    expect(screen).toMatch(/Base URL of the txa API/);
    expect(screen).not.toContain(key); // the key is masked as it is typed
    expect(screen).toMatch(/Logged in to/);
    expect(screen).toMatch(/exit=0/);
    const saved = JSON.parse(readFileSync(join(sb.env.TXA_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(saved.profiles.default).toEqual({ base_url: srv.url, api_key: key, workspace: WS });
  });

  it('reads the key from stdin with --with-token, checks it, and saves the profile', async () => {
    const sb = sandbox();
    const r = await sb.txa(['--base-url', `${srv.url}/v1`, '-w', WS, 'login', '--with-token'], { input: `${key}\n`, stdin: 'pipe' });
    expect([r.exitCode, r.stderr]).toEqual([0, expect.stringContaining(`Logged in to ${srv.url}/v1, workspace ${WS}`)]);
    expect((await sb.txa(['config', 'list'])).stdout).toBe(`base_url\t${srv.url}/v1\napi_key\t${key.slice(0, 13)}…\nworkspace\t${WS}`);
    expect(statSync(join(sb.env.TXA_CONFIG_DIR!, 'config.json')).mode & 0o777).toBe(0o600);
    // The saved profile is now the remote backend.
    const tags = await sb.json(['tx', 'list', '--limit', '1']);
    expect(tags.pagination.total).toBe(40);
  });

  it('saves nothing when the key is wrong (exit 4) or names another workspace (exit 4)', async () => {
    const sb = sandbox();
    const wrong = await sb.txa(['--base-url', srv.url, '-w', WS, 'login', '--with-token'], { input: 'txa_live_nope', stdin: 'pipe' });
    expect([wrong.exitCode, wrong.stderr]).toEqual([4, expect.stringContaining('UNAUTHORIZED')]);
    const other = await sb.txa(['--base-url', srv.url, '-w', OTHER_WS, 'login', '--with-token'], { input: key, stdin: 'pipe' });
    expect([other.exitCode, other.stderr]).toEqual([4, expect.stringContaining('FORBIDDEN')]);
    expect(existsSync(join(sb.env.TXA_CONFIG_DIR!, 'config.json'))).toBe(false);
  });

  it('never prompts without a TTY: names the missing flag (exit 2)', async () => {
    const sb = sandbox();
    const noToken = await sb.txa(['--base-url', srv.url, '-w', WS, 'login']);
    expect([noToken.exitCode, noToken.stderr]).toEqual([2, expect.stringContaining('--with-token is required')]);
    const noUrl = await sb.txa(['-w', WS, 'login', '--with-token'], { input: key, stdin: 'pipe' });
    expect([noUrl.exitCode, noUrl.stderr]).toEqual([2, expect.stringContaining('--base-url is required')]);
    const noWs = await sb.txa(['--base-url', srv.url, 'login', '--with-token'], { input: key, stdin: 'pipe' });
    expect([noWs.exitCode, noWs.stderr]).toEqual([2, expect.stringContaining('--workspace is required')]);
    const empty = await sb.txa(['--base-url', srv.url, '-w', WS, 'login', '--with-token'], { input: '', stdin: 'pipe' });
    expect(empty.exitCode).toBe(2);
  });
});

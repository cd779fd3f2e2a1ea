/**
 * bin/txa loads the bundle with a V8 code cache (bin/bundle-loader.cjs): the first command writes
 * one cache file per chunk it loaded, the next ones run from them, and a cache V8 rejects is only
 * a slower start. `config set` loads the ESM-only `conf` package through import(), which code
 * run from a code cache cannot do on Node 20 (the bundle routes it through the loader).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sandbox } from '../helpers/cli.js';

const ENTRY = resolve(import.meta.dirname, '../../dist/bundle/txa.cjs');
const CLI_MAIN = resolve(import.meta.dirname, '../../dist/cli/main.js');

describe('the bundle loader', () => {
  it('runs the bundle (npm run build is fresh)', () => {
    expect(existsSync(ENTRY)).toBe(true);
    expect(statSync(ENTRY).mtimeMs).toBeGreaterThanOrEqual(statSync(CLI_MAIN).mtimeMs);
  });

  it('writes a cache per chunk, then runs from it, ESM-only packages included', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'txa-cache-'));
    const sb = sandbox({ XDG_CACHE_HOME: cache });
    const dir = join(cache, 'txa', 'code-cache');

    const first = await sb.txa(['config', 'set', 'workspace', 'ws_one']);
    expect([first.exitCode, first.stderr]).toEqual([0, expect.stringMatching(/^Set workspace/)]);
    const files = readdirSync(dir);
    expect(files.some((f) => /-txa\.cjs-\d+-\d+-.+\.v8$/.test(f))).toBe(true);
    expect(files.some((f) => /-cli-.+\.cjs-\d+-\d+-.+\.v8$/.test(f))).toBe(true);

    const second = await sb.txa(['config', 'set', 'workspace', 'ws_two']);
    expect([second.exitCode, second.stderr]).toEqual([0, expect.stringMatching(/^Set workspace/)]);
    expect(readdirSync(dir).sort()).toEqual(files.sort());
    expect((await sb.txa(['config', 'get', 'workspace'])).stdout.trim()).toBe('ws_two');
  });

  it('a cache V8 rejects is compiled anew and rewritten', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'txa-cache-'));
    const sb = sandbox({ XDG_CACHE_HOME: cache });
    const dir = join(cache, 'txa', 'code-cache');
    expect((await sb.txa(['config', 'list'])).exitCode).toBe(0);
    for (const f of readdirSync(dir)) writeFileSync(join(dir, f), 'not a code cache');

    const run = await sb.txa(['config', 'set', 'workspace', 'ws_x']);
    expect([run.exitCode, run.stderr]).toEqual([0, expect.stringMatching(/^Set workspace/)]);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).size).toBeGreaterThan(100);
  });

  it('an unwritable cache folder only means no cache', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'txa-cache-'));
    writeFileSync(join(cache, 'txa'), 'a file where the folder would go');
    const sb = sandbox({ XDG_CACHE_HOME: cache });
    const run = await sb.txa(['config', 'set', 'workspace', 'ws_y']);
    expect([run.exitCode, run.stderr]).toEqual([0, expect.stringMatching(/^Set workspace/)]);
  });
});

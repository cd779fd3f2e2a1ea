/** `txa config` run in process (test/helpers/in-process.ts) on a config file of the test's own. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as get from '../../../src/cli/commands/config/get.js';
import * as list from '../../../src/cli/commands/config/list.js';
import * as set from '../../../src/cli/commands/config/set.js';
import { runInProcess } from '../../helpers/in-process.js';

beforeAll(() => {
  process.env.TXA_CONFIG_DIR = join(mkdtempSync(join(tmpdir(), 'txa-in-process-')), 'config');
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa config, in process', () => {
  it('set --json prints the key and its value, an API key masked', async () => {
    const r = await runInProcess('txa config set', set.run, { key: 'api_key', value: 'txa_live_0123456789abcdef' }, { json: true });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ success: true, data: { key: 'api_key', value: 'txa_live_0123…' } });
  });

  it('get in a pipe prints the value alone; list masks the key', async () => {
    await runInProcess('txa config set', set.run, { key: 'workspace', value: 'ws_1' });
    expect((await runInProcess('txa config get', get.run, { key: 'workspace' })).stdout).toBe('ws_1\n');
    expect((await runInProcess('txa config list', list.run, {})).stdout).toBe('api_key\ttxa_live_0123…\nworkspace\tws_1\n');
  });

  it('an unset value prints nothing, exit 1; an unknown key is USAGE_ERROR, exit 2', async () => {
    const unset = await runInProcess('txa config get', get.run, { key: 'db' });
    expect([unset.exitCode, unset.stdout, unset.stderr]).toEqual([1, '', '']);
    const unknown = await runInProcess('txa config get', get.run, { key: 'colour' });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^error: USAGE_ERROR \(key\): unknown config key 'colour'/);
  });
});

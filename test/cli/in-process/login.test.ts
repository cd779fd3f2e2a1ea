/**
 * `txa login` run in process (test/helpers/in-process.ts): what it refuses before any request.
 * The login itself, against a real `txa serve` with the key on stdin, is test/cli/login.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/commands/login/login.js';
import { runInProcess } from '../../helpers/in-process.js';

beforeAll(() => {
  process.env.TXA_CONFIG_DIR = join(mkdtempSync(join(tmpdir(), 'txa-in-process-')), 'config');
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa login, in process', () => {
  it('without a base URL and a TTY: the USAGE_ERROR body naming base-url on stderr (--json), exit 2', async () => {
    const r = await runInProcess('txa login', run, { withToken: true }, { json: true });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toMatchObject({ success: false, error: { code: 'USAGE_ERROR', field: 'base-url' } });
  });

  it('in a pipe, a base URL that is not http(s) is one error line, exit 2', async () => {
    const r = await runInProcess('txa login', run, { withToken: true }, { baseUrl: 'ftp://example.com' });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: USAGE_ERROR \(base-url\)/);
  });

  it('without --with-token and a TTY, the key cannot be asked for: USAGE_ERROR naming with-token', async () => {
    const r = await runInProcess('txa login', run, {}, { baseUrl: 'http://127.0.0.1:1' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: USAGE_ERROR \(with-token\)/);
  });
});

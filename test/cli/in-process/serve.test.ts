/**
 * `txa serve` run in process (test/helpers/in-process.ts): it listens, answers, and on SIGTERM
 * (emitted to this process's listeners only) finishes and returns; a bad flag is refused first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { run } from '../../../src/cli/commands/serve/serve.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

let l: TempLedger;

beforeAll(() => {
  l = tempLedger();
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

/** A port free a moment ago: runInProcess hands back the output only at the end, so the test picks the port. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function health(url: string): Promise<number | undefined> {
  for (let i = 0; i < 100; i++) {
    const status = await fetch(url).then(
      (res) => res.status,
      () => undefined,
    );
    if (status !== undefined) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

describe('txa serve, in process', () => {
  // The export worker thread loads built code (dist/): from src/ it fails to start, says so on the
  // process's stderr, and the API serves on without it, which is all this test needs.
  it('serves /api/v1/health, says where it listens on stderr, and stops on SIGTERM', async () => {
    const port = await freePort();
    const ran = runInProcess('txa serve', run, { host: '127.0.0.1', port: String(port) }, { db: l.db });
    expect(await health(`http://127.0.0.1:${port}/api/v1/health`)).toBe(200);
    process.emit('SIGTERM');
    const r = await ran;
    expect([r.exitCode, r.stdout]).toEqual([0, '']);
    expect(r.stderr).toBe(`txa API listening on http://127.0.0.1:${port} (ledger ${l.db})\nSIGTERM: finishing in-flight requests…\n`);
  });

  it('--port that is no port is USAGE_ERROR (port), exit 2, before anything starts', async () => {
    const r = await runInProcess('txa serve', run, { host: '127.0.0.1', port: 'http' }, { db: l.db });
    expect([r.exitCode, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe("error: USAGE_ERROR (port): --port must be 0 to 65535, got 'http'\n");
  });
});

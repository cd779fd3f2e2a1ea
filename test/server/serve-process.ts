/** Runs `txa serve` as a real process on an ephemeral 127.0.0.1 port, for the end-to-end tests. */
import { execa, type ResultPromise } from 'execa';
import { BIN } from '../helpers/cli.js';

export interface ServeProcess {
  url: string;
  proc: ResultPromise;
  stderr: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export async function startServe(ledgerPath: string, args: string[] = [], env: Record<string, string> = {}): Promise<ServeProcess> {
  const proc = execa(BIN, ['--db', ledgerPath, 'serve', '--port', '0', ...args], {
    env: { NO_COLOR: '1', TXA_BASE_URL: '', TXA_API_KEY: '', TXA_CONFIG_DIR: `${ledgerPath}.config`, ...env },
    reject: false,
    stdin: 'ignore',
  });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 15_000);
    proc.stderr!.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void proc.then(() => reject(new Error(`serve exited: ${err}`)));
  });
  return {
    url,
    proc,
    stderr: () => err,
    stop: async (signal = 'SIGTERM') => {
      proc.kill(signal);
      await proc;
    },
  };
}

/** Polls until `fn` returns a truthy value. */
export async function until<T>(fn: () => T | Promise<T>, timeoutMs = 20_000, what = 'condition'): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One authenticated JSON request to a running `txa serve`. */
export async function api(srv: ServeProcess, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${srv.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

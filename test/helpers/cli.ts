/** Runs the built `bin/txa` as a user would, on a throw-away ledger and config directory. */
import { execa, type Options } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/txa');

export interface Sandbox {
  dir: string;
  env: Record<string, string>;
  txa: (args: string[], opts?: Options) => Promise<{ stdout: string; stderr: string; exitCode: number }>;
  /** Runs with --json and parses stdout. */
  json: <T = any>(args: string[], opts?: Options) => Promise<T>;
}

export function sandbox(extraEnv: Record<string, string> = {}): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'txa-test-'));
  const env = {
    TXA_DB: join(dir, 'ledger.db'),
    TXA_CONFIG_DIR: join(dir, 'config'),
    NO_COLOR: '1',
    TXA_BASE_URL: '',
    TXA_API_KEY: '',
    TXA_WORKSPACE: '',
    TXA_PROFILE: '',
    ...extraEnv,
  };
  const txa = async (args: string[], opts: Options = {}) => {
    const r = await execa(BIN, args, {
      reject: false,
      cwd: dir,
      ...opts,
      env: { ...env, ...(opts.env as Record<string, string> | undefined) },
      stdin: opts.stdin ?? 'ignore',
    });
    return { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode ?? -1 };
  };
  const json = async (args: string[], opts?: Options) => {
    const r = await txa([...args, '--json'], opts);
    if (r.exitCode !== 0) throw new Error(`txa ${args.join(' ')} failed (${r.exitCode}): ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  return { dir, env, txa, json };
}

/** `txa login`: an API key checked against a server, then base URL, key and workspace stored in the profile (docs/server.md "Profiles and login"). */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { requireHttpUrl, writeProfileValue } from '../../config.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface LoginOptions {
  /** Read the key from stdin. */
  withToken?: boolean;
}

function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** A value from the flags, environment or profile, else a prompt on a TTY, else a usage error naming the flag. */
async function valueOrPrompt(current: string | undefined, flag: string, message: string): Promise<string> {
  if (current) return current;
  if (!canPrompt()) throw new TxaError('USAGE_ERROR', `--${flag} is required when not running interactively`, { field: flag });
  const { input } = await import('@inquirer/prompts');
  return (await input({ message, validate: (v) => v.trim() !== '' || 'required' })).trim();
}

async function readKey(withToken: boolean | undefined): Promise<string> {
  if (withToken) {
    const key = await readStdin();
    if (!key) throw new TxaError('USAGE_ERROR', 'no API key on stdin', { field: 'with-token', hint: 'Pipe it in: echo "$KEY" | txa login --with-token' });
    return key;
  }
  if (!canPrompt())
    throw new TxaError('USAGE_ERROR', '--with-token is required when not running interactively (the key is read from stdin)', { field: 'with-token' });
  const { password } = await import('@inquirer/prompts');
  return (await password({ message: 'API key', mask: '*', validate: (v) => v.trim() !== '' || 'required' })).trim();
}

/** One request with the key: 401/403/404 end the login here, before anything is saved. */
async function checkKey(ctx: Context, baseUrl: string, key: string, workspace: string): Promise<void> {
  const { RemoteBackend } = await import('../../../remote/remote-backend.js');
  const remote = new RemoteBackend({ baseUrl, apiKey: key, onNotice: (m) => ctx.out.notice(m) });
  try {
    await remote.listTags(workspace);
  } finally {
    await remote.close();
  }
}

export async function run(ctx: Context, opts: LoginOptions): Promise<void> {
  const baseUrl = await valueOrPrompt(ctx.globals.baseUrl || process.env.TXA_BASE_URL || ctx.profile.base_url, 'base-url', 'Base URL of the txa API');
  requireHttpUrl(baseUrl, 'the base URL', 'base-url');
  const key = await readKey(opts.withToken);
  const workspace = await valueOrPrompt(ctx.globals.workspace || process.env.TXA_WORKSPACE || ctx.profile.workspace, 'workspace', 'Workspace id');
  await checkKey(ctx, baseUrl, key, workspace);
  await writeProfileValue(ctx.profileName, 'base_url', baseUrl);
  await writeProfileValue(ctx.profileName, 'api_key', key);
  await writeProfileValue(ctx.profileName, 'workspace', workspace);
  ctx.out.result({ profile: ctx.profileName, base_url: baseUrl, workspace }, () =>
    ctx.out.notice(`Logged in to ${baseUrl}, workspace ${workspace} (profile '${ctx.profileName}').`),
  );
}

export function register(program: Command): void {
  program
    .command('login')
    .description('check an API key against a server and store base URL, key and workspace in the profile')
    .option('--with-token', 'read the API key from stdin')
    .addHelpText(
      'after',
      '\nUses the global --base-url and -w/--workspace when given, else asks on a TTY.\n  echo "$TXA_KEY" | txa login --base-url https://txa.example.com -w ws_1 --with-token',
    )
    .action(action<LoginOptions>((ctx, flags) => run(ctx, flags)));
}

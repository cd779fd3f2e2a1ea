/**
 * What a command needs besides its flags: the backend (local ledger or remote API), the
 * workspace, the profile and the output, resolved with the precedence of CONTRACT §1:
 * flag > environment variable > profile > default.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Backend } from '../core/backend.js';
import { TxaError } from '../core/errors.js';
import type { LocalBackend } from '../engine/local-backend.js';
import { dataDir, profileName, readProfile, type Profile } from './config.js';
import { Output } from './output.js';

export interface GlobalOptions {
  db?: string;
  remote?: boolean;
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  workspace?: string;
  json?: boolean;
  color?: boolean;
}

export class Context {
  readonly out: Output;
  readonly profileName: string;
  private cachedProfile: Profile | undefined;
  private opened: Backend | undefined;

  constructor(readonly globals: GlobalOptions) {
    this.out = new Output({ json: Boolean(globals.json), color: globals.color !== false });
    this.profileName = profileName(globals.profile);
  }

  static of(cmd: Command): Context {
    return new Context(cmd.optsWithGlobals() as GlobalOptions);
  }

  get profile(): Profile {
    this.cachedProfile ??= readProfile(this.profileName);
    return this.cachedProfile;
  }

  ledgerPath(): string {
    return this.globals.db || process.env.TXA_DB || this.profile.db || join(dataDir(), 'ledger.db');
  }

  baseUrl(): string | undefined {
    return this.globals.baseUrl || process.env.TXA_BASE_URL || this.profile.base_url || undefined;
  }

  /** The key comes from TXA_API_KEY, else the profile, else --api-key (CONTRACT §1). */
  apiKey(): string | undefined {
    return process.env.TXA_API_KEY || this.profile.api_key || this.globals.apiKey || undefined;
  }

  isRemote(): boolean {
    return Boolean(this.globals.remote) || this.baseUrl() !== undefined;
  }

  workspace(): string {
    const ws = this.globals.workspace || process.env.TXA_WORKSPACE || this.profile.workspace;
    if (!ws) {
      throw new TxaError('USAGE_ERROR', 'no workspace selected', {
        field: 'workspace',
        hint: 'Pass -w/--workspace ID, set TXA_WORKSPACE, or run `txa workspace use ID` to store it in the profile.',
      });
    }
    return ws;
  }

  async backend(): Promise<Backend> {
    if (this.opened) return this.opened;
    if (this.isRemote()) {
      const baseUrl = this.baseUrl();
      if (!baseUrl) throw new TxaError('USAGE_ERROR', '--remote needs a base URL', { field: 'base-url', hint: 'Pass --base-url URL, set TXA_BASE_URL, or run `txa login`.' });
      const { RemoteBackend } = await import('../remote/remote-backend.js');
      const remote: Backend = new RemoteBackend({ baseUrl, apiKey: this.apiKey(), onNotice: (m) => this.out.notice(m) });
      this.opened = remote;
      return remote;
    }
    const local = await this.openLocal();
    this.opened = local;
    return local;
  }

  /** The local engine, for local-only commands; a clear usage error when a remote backend is selected. */
  async local(command: string): Promise<LocalBackend> {
    if (this.isRemote()) {
      throw new TxaError('LOCAL_ONLY', `txa ${command} works on the local ledger only, but a remote backend is selected`, {
        hint: 'Run it without --remote/--base-url (and without TXA_BASE_URL or a profile base_url), or with --db PATH.',
      });
    }
    if (!this.opened) this.opened = await this.openLocal();
    return this.opened as LocalBackend;
  }

  private async openLocal(): Promise<LocalBackend> {
    const { LocalBackend } = await import('../engine/local-backend.js');
    return LocalBackend.open(this.ledgerPath());
  }

  async close(): Promise<void> {
    await this.opened?.close();
  }
}

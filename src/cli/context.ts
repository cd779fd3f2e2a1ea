/**
 * What a command needs besides its flags: the backend (local ledger or remote API), the
 * workspace, the profile and the output, resolved with the precedence of docs/architecture.md "Backends and configuration":
 * flag > environment variable > profile > default.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Backend } from '../core/backend.js';
import { pinnedNow } from '../core/clock.js';
import { TxaError } from '../core/errors.js';
import type { LocalBackend } from '../engine/local-backend.js';
import type { LocalServices } from '../local/services.js';
import { dataDir, profileName, readProfile, requireHttpUrl, requireProfile, type Profile } from './config.js';
import { Output, type Streams } from './output.js';

/** Commands that write the selected profile, so it need not exist yet. */
const CREATES_PROFILE = new Set(['txa login', 'txa config set']);

/**
 * Commands that may create the ledger file (and say so on stderr); any other command on a path
 * with no file is LEDGER_NOT_FOUND, so a mistyped --db or TXA_DB creates nothing
 * (docs/architecture.md "Backends and configuration"). Every other writing command needs a
 * workspace, which only an existing ledger holds.
 */
const CREATES_LEDGER = new Set(['txa workspace create', 'txa demo', 'txa serve']);

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
  /** The command's words (`txa tx list`), set by `check`. */
  private command = '';
  /** The ledger file this command created, said on success and removed on failure (nothing half-made stays). */
  private createdLedger: string | undefined;

  /** `streams`: where the output goes, the process's by default (a test runs a command in process with its own). */
  constructor(
    readonly globals: GlobalOptions,
    streams?: Streams,
  ) {
    this.out = new Output({ json: Boolean(globals.json), color: globals.color !== false, streams });
    this.profileName = profileName(globals.profile);
  }

  static of(cmd: Command): Context {
    return new Context(cmd.optsWithGlobals() as GlobalOptions);
  }

  /**
   * Checks of the global settings before a command does anything, each a usage error: `--db` with
   * `--remote`/`--base-url`, an unparsable TXA_NOW, a --profile/TXA_PROFILE not in the config file.
   */
  check(command: string): void {
    this.command = command;
    if (this.globals.db && (this.globals.remote || this.globals.baseUrl)) {
      throw new TxaError('USAGE_ERROR', '--db selects the local ledger; it cannot be combined with --remote or --base-url', { field: 'db' });
    }
    pinnedNow();
    const from = this.globals.profile ? '--profile' : process.env.TXA_PROFILE ? 'TXA_PROFILE' : undefined;
    if (from && !CREATES_PROFILE.has(command)) requireProfile(this.profileName, from);
  }

  get profile(): Profile {
    this.cachedProfile ??= readProfile(this.profileName);
    return this.cachedProfile;
  }

  ledgerPath(): string {
    return this.globals.db || process.env.TXA_DB || this.profile.db || join(dataDir(), 'ledger.db');
  }

  /** Where ledgerPath came from, in the words a user can act on. */
  private ledgerSource(): string {
    if (this.globals.db) return '--db';
    if (process.env.TXA_DB) return 'TXA_DB';
    return this.profile.db ? `the db of profile '${this.profileName}'` : 'the default ledger';
  }

  /** Where workspace() came from, in the words a user can act on. */
  private workspaceSource(): string {
    if (this.globals.workspace) return '-w/--workspace';
    if (process.env.TXA_WORKSPACE) return 'TXA_WORKSPACE';
    return `the default workspace of profile '${this.profileName}'`;
  }

  /**
   * WORKSPACE_NOT_FOUND for a workspace the user did not type says where the id came from and how
   * to change it: a profile's default follows the user to every ledger (docs/architecture.md).
   */
  explain(err: TxaError): TxaError {
    if (err.code !== 'WORKSPACE_NOT_FOUND' || this.globals.workspace || this.isRemote()) return err;
    // An id typed as an argument (`workspace use ID`, `workspace show ID`) is not the selected one.
    const selected = process.env.TXA_WORKSPACE || this.profile.workspace;
    if (!selected || err.message !== `workspace ${selected} not found`) return err;
    const from = this.workspaceSource();
    const fix = process.env.TXA_WORKSPACE ? 'set TXA_WORKSPACE to one of its workspaces' : '`txa workspace use ID` picks one of its workspaces';
    return new TxaError(err.code, `${err.message} in ledger ${this.ledgerPath()} (${from})`, {
      field: err.field,
      extra: err.extra,
      hint: `${from[0]!.toUpperCase()}${from.slice(1)} is not in this ledger: \`txa workspace list\` shows its workspaces, ${fix}, or pass -w ID.`,
    });
  }

  baseUrl(): string | undefined {
    return this.globals.baseUrl || process.env.TXA_BASE_URL || this.profile.base_url || undefined;
  }

  /** The public URL of a `txa serve` on this ledger: TXA_PUBLIC_URL, else the profile's `public_url` (docs/exports.md "Links and expiry"). */
  publicUrl(): string | undefined {
    const env = process.env.TXA_PUBLIC_URL;
    return env ? requireHttpUrl(env, 'TXA_PUBLIC_URL', 'public_url') : this.profile.public_url;
  }

  /** The key comes from TXA_API_KEY, else the profile, else --api-key (docs/architecture.md "Backends and configuration"). */
  apiKey(): string | undefined {
    return process.env.TXA_API_KEY || this.profile.api_key || this.globals.apiKey || undefined;
  }

  /** A `--db` flag selects the local ledger over a base URL from TXA_BASE_URL or the profile (flag > environment > profile). */
  isRemote(): boolean {
    if (this.globals.remote || this.globals.baseUrl) return true;
    return !this.globals.db && this.baseUrl() !== undefined;
  }

  workspace(): string {
    const ws = this.globals.workspace || process.env.TXA_WORKSPACE || this.profile.workspace;
    if (!ws) {
      // The message names every way itself, so the `--json` body (which has no hint) says it too.
      throw new TxaError(
        'USAGE_ERROR',
        `no workspace selected: pass -w/--workspace ID, set TXA_WORKSPACE, or store it in profile '${this.profileName}' with \`txa workspace use ID\` (or \`txa config set workspace ID\`)`,
        // The first run meets this error first: the next step is a workspace (./bin/txa until `npm link`).
        {
          field: 'workspace',
          hint: 'New here? `./bin/txa demo` loads a demo workspace; `./bin/txa workspace create NAME` makes an empty one (`txa` once `npm link` put it on your PATH).',
        },
      );
    }
    return ws;
  }

  async backend(): Promise<Backend> {
    if (this.opened) return this.opened;
    if (this.isRemote()) {
      const baseUrl = this.baseUrl();
      if (!baseUrl)
        throw new TxaError('USAGE_ERROR', '--remote needs a base URL', {
          field: 'base-url',
          hint: 'Pass --base-url URL, set TXA_BASE_URL, or run `txa login`.',
        });
      const { RemoteBackend } = await import('../remote/remote-backend.js');
      const remote: Backend = new RemoteBackend({ baseUrl, apiKey: this.apiKey(), onNotice: (m) => this.out.notice(m) });
      this.opened = remote;
      return remote;
    }
    const local = await this.openLocal();
    this.opened = local;
    return local;
  }

  /** The local services, for local-only commands; a clear usage error when a remote backend is selected. */
  async local(command: string): Promise<LocalServices> {
    if (this.isRemote()) {
      throw new TxaError('LOCAL_ONLY', `txa ${command} works on the local ledger only, but a remote backend is selected`, { hint: this.localOnlyHint() });
    }
    if (!this.opened) this.opened = await this.openLocal();
    const { LocalServices } = await import('../local/services.js');
    return new LocalServices(this.opened as LocalBackend);
  }

  /** The way back to the local ledger: drop the flags, and `--db` beats a base URL from the environment or profile. */
  private localOnlyHint(): string {
    const byFlag = this.globals.remote || this.globals.baseUrl;
    const setting = process.env.TXA_BASE_URL ? 'TXA_BASE_URL' : this.profile.base_url ? `the base_url of profile '${this.profileName}'` : undefined;
    if (!setting) return 'Run it without --remote/--base-url.';
    if (byFlag) return `Run it without --remote/--base-url, and with --db PATH (${setting} selects the remote API too).`;
    return `${setting[0]!.toUpperCase()}${setting.slice(1)} selects the remote API: pass --db PATH to use a local ledger.`;
  }

  private async openLocal(): Promise<LocalBackend> {
    const path = this.ledgerPath();
    const isNew = path !== ':memory:' && !existsSync(path);
    if (isNew && !CREATES_LEDGER.has(this.command)) {
      throw new TxaError('LEDGER_NOT_FOUND', `no ledger at ${path} (${this.ledgerSource()}); nothing was created`, {
        field: 'db',
        hint: 'Check the path, or create a ledger there with `./bin/txa workspace create NAME` or `./bin/txa demo` (`txa` once `npm link` put it on your PATH).',
      });
    }
    const { LocalBackend } = await import('../engine/local-backend.js');
    // The public URL of a `txa serve` on this ledger signs the links of local exports.
    const backend = LocalBackend.open(path, { publicBaseUrl: this.publicUrl() });
    if (isNew) this.createdLedger = path;
    return backend;
  }

  /** After the command: a ledger it created is said on stderr when it succeeded, and removed when it failed. Call after close(). */
  settleCreatedLedger(succeeded: boolean): void {
    const path = this.createdLedger;
    if (!path) return;
    if (succeeded) this.out.notice(`created ledger ${path}`);
    else for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  }

  async close(): Promise<void> {
    await this.opened?.close();
  }
}

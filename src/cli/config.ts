/**
 * Profiles in the config file (`$XDG_CONFIG_HOME/txa/config.json`, or `TXA_CONFIG_DIR`), mode 0600.
 * Reads parse the file directly: every command needs them and the `conf` package costs tens of
 * milliseconds to load; writes go through `conf` (atomic write, file mode) and load it only then.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { TxaError } from '../core/errors.js';

export const PROFILE_KEYS = ['base_url', 'api_key', 'workspace', 'db', 'etherscan_api_key', 'public_url'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export type Profile = Partial<Record<ProfileKey, string>>;

interface ConfigFile {
  profiles?: Record<string, Profile>;
}

export function configDir(): string {
  if (process.env.TXA_CONFIG_DIR) return process.env.TXA_CONFIG_DIR;
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'txa');
}

export function configPath(): string {
  return join(configDir(), 'config.json');
}

export function dataDir(): string {
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'txa');
}

function readConfig(): ConfigFile {
  let text: string;
  try {
    text = readFileSync(configPath(), 'utf8');
  } catch {
    return {};
  }
  try {
    return JSON.parse(text) as ConfigFile;
  } catch {
    throw new TxaError('USAGE_ERROR', `the config file ${configPath()} is not valid JSON`, {
      hint: 'Fix or remove it; txa writes it again on the next `txa config set`.',
    });
  }
}

export function profileName(flag?: string): string {
  return flag || process.env.TXA_PROFILE || 'default';
}

export function readProfile(name: string): Profile {
  return readConfig().profiles?.[name] ?? {};
}

/**
 * A profile named by --profile or TXA_PROFILE must be in the config file: a typo would otherwise
 * run with no settings at all, i.e. on the default ledger. `default` always exists, empty or not.
 */
export function requireProfile(name: string, from: '--profile' | 'TXA_PROFILE'): void {
  if (name === 'default') return;
  const names = Object.keys(listProfiles());
  if (names.includes(name)) return;
  const known = names.length > 0 ? `Profiles in it: ${names.join(', ')}.` : 'It has no profiles yet.';
  throw new TxaError('USAGE_ERROR', `profile '${name}' (from ${from}) is not in the config file ${configPath()}`, {
    field: from.replace(/^--/, ''),
    hint: `${known} Create it with \`txa --profile ${name} config set KEY VALUE\` or \`txa --profile ${name} login\`.`,
  });
}

export function listProfiles(): Record<string, Profile> {
  return readConfig().profiles ?? {};
}

export function isProfileKey(key: string): key is ProfileKey {
  return (PROFILE_KEYS as readonly string[]).includes(key);
}

/** Sets (or, with `undefined`, removes) a key of a profile. */
export async function writeProfileValue(name: string, key: ProfileKey, value: string | undefined): Promise<void> {
  const { default: Conf } = await import('conf');
  const store = new Conf<ConfigFile>({ projectName: 'txa', cwd: configDir(), configName: 'config', configFileMode: 0o600 });
  const path = `profiles.${name}.${key}` as const;
  if (value === undefined) store.delete(path as never);
  else store.set(path, value);
}

/** A flag or setting that must be an http(s) URL (base URL, public URL), checked before any request. */
export function requireHttpUrl(value: string, label: string, field: string): string {
  if (!/^https?:\/\/[^/]+/.test(value)) throw new TxaError('USAGE_ERROR', `${label} must be an http(s) URL, got '${value}'`, { field });
  return value;
}

/** The config verbs' shared rules on a profile key: which names exist, and which values are secrets. */
import { TxaError } from '../../../core/errors.js';
import { isProfileKey, PROFILE_KEYS, type ProfileKey } from '../../config.js';

/** A key argument, or a usage error listing the keys. */
export function keyArg(key: string): ProfileKey {
  if (isProfileKey(key)) return key;
  throw new TxaError('USAGE_ERROR', `unknown config key '${key}'; keys: ${PROFILE_KEYS.join(', ')}`, { field: 'key' });
}

/** The profile's API keys (txa's own and the explorer's), which output shows masked. */
export const isSecret = (key: ProfileKey) => key.endsWith('api_key');

/** Output shows only the start of a key. */
export function maskKey(value: string): string {
  return value.length <= 13 ? '****' : `${value.slice(0, 13)}…`;
}

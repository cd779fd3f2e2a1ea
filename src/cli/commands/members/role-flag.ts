/** `--role`: the three roles, and `editor` read as `contributor` (docs/server.md "Teams"). */
import { ROLE_INPUTS } from '../../../core/members.js';
import { choice } from '../../run.js';

export const ROLE_HELP = 'admin, contributor or viewer (editor is read as contributor)';

/** The role flag, checked before any request: a usage error naming --role. */
export function roleFlag(value: string): string {
  return choice('role', value.trim().toLowerCase(), ROLE_INPUTS)!;
}

/**
 * The rule of exit codes for flag values (docs/cli.md, "Flag values and exit codes"): a value a flag
 * can never take (not a day, not a number, not one of its words, `--limit 500` above the fixed
 * maximum) is a usage error, USAGE_ERROR and exit 2, found before any ledger is opened or request
 * sent, naming the flag as typed and echoing the value. A value of the right form that the data
 * refuses (an unknown id or name, more decimals than the token has, an end before the start) is the
 * engine's or the API's error, exit 1.
 *
 * Every flag that takes a value has a form here, or is in FREE_FORM (text, ids, names, paths, whose
 * every value is a possible one). test/cli/first-hour/flag-forms.test.ts walks the commander tree
 * and fails on a flag with neither, so a new flag is decided when it is added.
 */
import type { Command, Option } from 'commander';
import { TxaError } from '../core/errors.js';
import { CHAINS, DIRECTIONS, EXCHANGES, EXPORT_FORMATS, SORTS, TAG_TYPES, TIERS } from '../core/types.js';
import { NAMED_PERIODS, expandPeriod, parseDay } from '../core/dates.js';
import { BASIS_SCOPES, COST_BASIS, CSV_COLUMNS, FEE_TREATMENTS, GROUP_BY, JURISDICTIONS, REPORT_TYPES } from '../core/export-values.js';
import { CHECK_KINDS } from '../core/check-kinds.js';
import { MAX_LIMIT, parseAmountBound } from '../core/filters.js';
import { LIST_LIMIT_MAX } from '../core/pagination.js';

/** A form: `check` answers what the value must be when it is not of the form, else undefined. `bad` is a value it refuses (for the test). */
export interface Form {
  check(value: string): string | undefined | Promise<string | undefined>;
  bad: string;
}

const oneOf = (values: readonly string[] | (() => Promise<readonly string[]>)): Form => ({
  async check(value) {
    const set = typeof values === 'function' ? await values() : values;
    return set.includes(value) ? undefined : `one of ${set.join(', ')}`;
  },
  bad: 'no-such-value',
});

/** A comma-separated list whose every item is one of `values`. */
const listOf = (values: readonly string[] | (() => Promise<readonly string[]>)): Form => ({
  async check(value) {
    const set = typeof values === 'function' ? await values() : values;
    const items = value.split(',').map((s) => s.trim());
    const wrong = items.find((i) => !set.includes(i));
    return wrong === undefined ? undefined : `a comma-separated list of ${set.join(', ')} ('${wrong}' is none of them)`;
  },
  bad: 'no-such-value',
});

const day: Form = { check: (v) => (parseDay(v) === null ? 'a real day YYYY-MM-DD' : undefined), bad: '2025-13-45' };

const period: Form = {
  check(v) {
    try {
      expandPeriod(v, new Date());
      return undefined;
    } catch {
      return `one of YYYY, YYYY-Qn, YYYY-MM, ${NAMED_PERIODS.slice(0, -1).join(', ')} or ${NAMED_PERIODS.at(-1)}`;
    }
  },
  bad: '2025-Q5',
};

/** A whole number from `min` to `max`. */
const whole = (min: number, max = Number.MAX_SAFE_INTEGER): Form => ({
  check: (v) => {
    const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
    return n >= min && n <= max ? undefined : max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  },
  bad: 'abc',
});

/** A token amount: a non-negative decimal (`1.25`, `1e-6`) of at most 78 integer digits (the API's own check, core/filters.ts). */
const amount: Form = {
  check: (v) => {
    try {
      parseAmountBound(v, 'amount', 'INVALID_PARAMETERS');
      return undefined;
    } catch {
      return 'a non-negative number of at most 78 integer digits';
    }
  },
  bad: '-5',
};

/** A fiat value: a number of at least 0 with at most 2 decimals (core/schemas.ts fiatValueOfText). */
const fiat: Form = {
  check: async (v) => {
    if (v === 'none') return undefined; // clears the value (tx update)
    const { fiatValueOfText } = await import('../core/schemas.js');
    try {
      if (fiatValueOfText(v) < 0) return 'a number of at least 0 with at most 2 decimals, or none';
      return undefined;
    } catch {
      return 'a number of at least 0 with at most 2 decimals, or none';
    }
  },
  bad: '-5',
};

const regex = (re: RegExp, what: string, bad: string): Form => ({ check: (v) => (re.test(v) ? undefined : what), bad });

const url: Form = {
  check: (v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol) ? undefined : 'an http or https URL';
    } catch {
      return 'an http or https URL';
    }
  },
  bad: 'not a url',
};

const BOOLEAN = oneOf(['true', 'false']);

/** A role as `--role` reads it: any case, `editor` for `contributor` (commands/members/role-flag.ts). */
const role: Form = {
  check: async (v) => {
    const { ROLE_INPUTS } = await import('../core/members.js');
    return (ROLE_INPUTS as readonly string[]).includes(v.trim().toLowerCase()) ? undefined : `one of ${ROLE_INPUTS.join(', ')}`;
  },
  bad: 'owner',
};

/** Forms by flag, for every command that has it. */
const BY_FLAG: Record<string, Form> = {
  '--start-date': day,
  '--end-date': day,
  '--at': day,
  '--through': day,
  '--period': period,
  '--page': whole(1),
  '--min-amount': amount,
  '--max-amount': amount,
  '--balance': amount,
  '--fiat-value': fiat,
  '--rate-limit': whole(1),
  '--port': regex(/^\d+$/, '0 to 65535', 'http'),
  '--has-tags': BOOLEAN,
  '--has-notes': BOOLEAN,
  '--internal': BOOLEAN,
  '--spam': BOOLEAN,
  '--chain': oneOf(CHAINS),
  '--exchange': oneOf(EXCHANGES),
  '--direction': oneOf(DIRECTIONS),
  '--sort': oneOf(SORTS),
  '--tier': oneOf(TIERS),
  '--jurisdiction': oneOf(JURISDICTIONS),
  '--role': role,
  '--report-type': oneOf(REPORT_TYPES),
  '--group-by': oneOf(GROUP_BY),
  '--cost-basis': oneOf(COST_BASIS),
  '--basis-scope': oneOf(BASIS_SCOPES),
  '--fee-treatment': oneOf(FEE_TREATMENTS),
  '--delivery': oneOf(['download', 'email', 'webhook']),
  '--allow': listOf(CHECK_KINDS),
  '--columns': listOf(CSV_COLUMNS),
  '--currency': regex(/^[A-Za-z]{3}$/, 'a three-letter currency code such as USD', 'dollars'),
  '--color': regex(/^#[0-9A-Fa-f]{6}$/, 'a hex colour #RRGGBB', 'red'),
  '--token-address': regex(/^0x[0-9A-Fa-f]{40}$/, 'a 0x address of 40 hex digits', '0x12'),
  '--sync-every': regex(/^\d+(s|m|h)$/, 'a duration of 1m to 596h such as 90s, 15m or 1h', 'often'),
  '--email': regex(/^[^\s@,]+@[^\s@,]+(,[^\s@,]+@[^\s@,]+)*$/, 'comma-separated e-mail addresses', 'nobody'),
  '--url': url,
  '--webhook-url': url,
  '--public-url': url,
  '--date-format': {
    check: async (v) =>
      (await import('../core/export-schema.js')).isDateFormat(v) ? undefined : "YYYY-MM-DD, MM/DD/YYYY or DD/MM/YYYY, optionally + ' HH:mm:ss' or ' HH:mm'",
    bad: 'YYYY/MM/DD',
  },
};

/** Forms of a flag on one command, where the same flag means another thing elsewhere. */
const BY_COMMAND: Record<string, Form> = {
  'txa import --format': oneOf(async () => [...(await import('../importers/types.js')).IMPORT_FORMATS, '1099da']),
  'txa export create --format': oneOf(EXPORT_FORMATS),
  'txa tags create --type': oneOf(TAG_TYPES),
  'txa tags update --type': oneOf(TAG_TYPES),
  'txa events list --type': oneOf(async () => (await import('../engine/webhooks.js')).EVENT_TYPES),
  'txa webhooks add --events': listOf(async () => (await import('../engine/webhooks.js')).EVENT_TYPES),
  'txa transfers list --status': oneOf(async () => (await import('../engine/transfers.js')).TRANSFER_STATUSES),
  'txa keys create --access': oneOf(async () => (await import('../engine/keys.js')).ACCESS_LEVELS),
  // core/lots.ts holds zod schemas: loaded only when these flags are typed, so `tx list` never loads zod.
  'txa lots allocate --order': oneOf(async () => (await import('../core/lots.js')).ALLOCATION_ORDERS),
  'txa lots allocate --cost-basis': oneOf(async () => (await import('../core/lots.js')).POOL_METHODS),
  'txa rates fill --from': day,
  'txa rates fill --to': day,
  'txa schedules create --every': oneOf(async () => (await import('../core/schedule-periods.js')).FREQUENCIES),
  'txa schedules create --format': oneOf(EXPORT_FORMATS),
  'txa prices fill --source': oneOf(async () => (await import('./commands/prices/sources.js')).FETCH_SOURCES),
  'txa prices list --source': oneOf(async () => (await import('./commands/prices/sources.js')).CACHE_SOURCES),
  'txa prices forget --source': oneOf(async () => (await import('./commands/prices/sources.js')).CACHE_SOURCES),
};

/**
 * Flags whose every value is a possible one: free text, names, ids and tag names (the data decides
 * whether one exists, exit 1), paths, hosts, addresses (whose form depends on the chain).
 */
export const FREE_FORM = new Set([
  '--name',
  '--label',
  '--description',
  '--notes',
  '--note',
  '--reason',
  '--pdf-title',
  '--out',
  '--dir',
  '--rules',
  '--specific',
  '--wallet',
  '--wallet-id',
  '--wallet-ids',
  '--tag-ids',
  '--add-tag',
  '--remove-tag',
  '--token',
  '--asset',
  '--address',
  '--xpub',
  '--host',
  '--member',
  // The time zone database decides (a past-only name is refused with its current one, exit 1).
  '--time-zone',
  // Global: paths, profile names, ids and keys (a profile not in the file is refused by Context.check).
  '--db',
  '--base-url',
  '--api-key',
  '--profile',
  '--workspace',
]);

/** The form of `option` on the command at `path` (`txa tx list`), if it has one. */
export function formOf(path: string, option: Option): Form | undefined {
  const long = option.long ?? '';
  if (long === '--limit') return whole(1, LIMIT_MAX[path] ?? LIST_LIMIT_MAX);
  return BY_COMMAND[`${path} ${long}`] ?? BY_FLAG[long];
}

/** `--limit` maxima of the lists the engine pages itself (its WALLET_LIMIT_MAX, EXPORTS_LIMIT_MAX, …); the others are LIST_LIMIT_MAX. */
const LIMIT_MAX: Record<string, number> = {
  'txa tx list': MAX_LIMIT,
  'txa events list': 200,
  'txa transfers list': 200,
  'txa wallet list': 100,
  'txa export list': 100,
};

/** Each flag typed on the command line (not a default) checked against its form, before the command runs: a USAGE_ERROR naming the first wrong one. */
export async function checkFlagValues(cmd: Command, path: string): Promise<void> {
  for (const option of cmd.options) {
    if (!(option.required || option.optional)) continue;
    const key = option.attributeName();
    if (cmd.getOptionValueSource(key) !== 'cli') continue;
    const form = formOf(path, option);
    if (!form) continue;
    const value = cmd.getOptionValue(key) as unknown;
    for (const one of Array.isArray(value) ? value : [value]) {
      if (typeof one !== 'string') continue;
      const must = await form.check(one);
      if (must !== undefined) throw new TxaError('USAGE_ERROR', `${option.long} must be ${must}, got '${one}'`, { field: option.long!.slice(2) });
    }
  }
}

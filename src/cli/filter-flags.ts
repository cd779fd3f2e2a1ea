/** The filter flags of `tx list` (and, by the same rules, of `export create`), and `--period`. */
import type { Command } from 'commander';
import { TxaError } from '../core/errors.js';
import { expandPeriod, type DateRange } from '../core/dates.js';
import { now } from '../core/clock.js';
import { CHAINS } from '../core/types.js';

export interface FilterFlags {
  chain?: string;
  token?: string;
  direction?: string;
  tagIds?: string;
  startDate?: string;
  endDate?: string;
  minAmount?: string;
  maxAmount?: string;
  hasTags?: string;
  internal?: string;
  includeSpam?: boolean;
  period?: string;
}

/**
 * Flags shared by `tx list`, `export create` and `schedules create`; each command adds its own
 * wallet flag. A schedule's period comes from its frequency: `dates: false` leaves out the date flags.
 */
export function addFilterOptions(cmd: Command, opts: { dates?: boolean } = {}): Command {
  cmd
    .option('--chain <chain>', CHAINS.join(', '))
    .option('--token <symbol>', 'token symbol, e.g. USDC')
    .option('--direction <dir>', 'inflow or outflow')
    .option('--tag-ids <tags>', 'comma-separated tags, by id or name (any of them)');
  if (opts.dates !== false)
    cmd
      .option('--start-date <YYYY-MM-DD>', 'first day, inclusive (UTC)')
      .option('--end-date <YYYY-MM-DD>', 'last day, inclusive (UTC)')
      .option('--period <period>', 'YYYY, YYYY-Qn, YYYY-MM, this-month, last-month, last-quarter, last-year or ytd');
  return cmd
    .option('--min-amount <n>', 'minimum amount in token units, inclusive')
    .option('--max-amount <n>', 'maximum amount in token units, inclusive')
    .option('--has-tags <bool>', 'true: tagged only; false: untagged only')
    .option('--internal <bool>', 'true: legs of own transfers only; false: all other rows')
    .option('--include-spam', 'include rows marked as spam (left out by default)');
}

/** `--period` expanded with the engine's clock; with --start-date/--end-date it is a usage error. */
export function dateRange(flags: FilterFlags): Partial<DateRange> {
  if (flags.period === undefined) return { start_date: flags.startDate, end_date: flags.endDate };
  if (flags.startDate !== undefined || flags.endDate !== undefined) {
    throw new TxaError('USAGE_ERROR', '--period cannot be combined with --start-date or --end-date', { field: 'period' });
  }
  return expandPeriod(flags.period, now());
}

/** The kinds of finding of `txa check` (docs/check.md): its `--allow` values, its report's rows, and its queries' keys (checks/kinds.ts). */
export const CHECK_KINDS = [
  'untagged',
  'unpriced',
  'unmatched_transfer',
  'negative_balance',
  'assertion_failed',
  'failed_export',
  'unrecorded_allocation',
  'closed_period_changed',
  'rollforward_difference',
  'empty_period',
  'stale_sync',
] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

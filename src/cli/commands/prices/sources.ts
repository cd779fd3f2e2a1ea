/** The `--source` values of the prices verbs, checked before the ledger is opened. */

/** The price APIs `fill` asks. */
export const FETCH_SOURCES = ['defillama', 'coingecko'] as const;

/** The sources of the cache's entries, for `list` and `forget`. */
export const CACHE_SOURCES = ['import', ...FETCH_SOURCES] as const;

// Summaries (count, inflow, outflow) of filters on dates, wallet, chain, token and direction:
// from the rollups (store/rollups.ts totalsFromRollups: whole months from rollup_monthly, the
// edge days from rollup_daily) against the plain aggregate over the matching rows
// (totalsFromRows). Both must be equal, to the cent; target ≥ 10× faster. Tag filters (issue 13,
// target 1: ≥ 20×): one tag id and has_tags from the tag rollups (totals), against the plain
// aggregate over the rows, which reaches a tag's rows through its links (totalsFromRows); two
// tag ids have no rollup (a row with both counts once) and are shown for what they cost. The
// ledger is opened read-only, so it must be at the current schema (open it once with txa to
// migrate it).
//   node bench/summary.mjs [LEDGER] [RUNS]     (default bench/data/ledger-1m.db, 7 runs; median)
import { openDb } from '../dist/store/db.js';
import { buildFilter } from '../dist/core/filters.js';
import { totals, totalsFromRollups, totalsFromRows } from '../dist/store/rollups.js';
import { isDeepStrictEqual } from 'node:util';

const ledger = process.argv[2] ?? 'bench/data/ledger-1m.db';
const runs = Number(process.argv[3] ?? 7);
const WS = 'ws_bench';

const CASES = {
  'whole workspace': {},
  'dates: one year': { start_date: '2025-11-01', end_date: '2026-10-31' },
  'dates: one month': { start_date: '2026-10-01', end_date: '2026-10-31' },
  wallet: { wallet_ids: ['wal_bench_treasury_1'] },
  chain: { chain: 'arbitrum' },
  token: { token: 'USDC' },
  direction: { direction: 'outflow' },
  'chain + 6 months + direction': { chain: 'ethereum', start_date: '2026-05-01', end_date: '2026-10-31', direction: 'inflow' },
  'chain + 6 months': { chain: 'ethereum', start_date: '2026-05-01', end_date: '2026-10-31' },
  'wallet + one year': { wallet_ids: ['wal_bench_treasury_1'], start_date: '2025-11-01', end_date: '2026-10-31' },
  'wallet + one year, mid-month edges': { wallet_ids: ['wal_bench_treasury_1'], start_date: '2025-06-15', end_date: '2026-06-14' },
};

function median(fn) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    result = fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], result };
}

const db = openDb(ledger, { readonly: true });
const tagId = (name) => db.prepare('SELECT id FROM tags WHERE workspace_id = ? AND name = ?').pluck().get(WS, name);
const [staking, payroll, gas] = ['Staking rewards', 'Payroll', 'Gas fees'].map(tagId);
const TAG_CASES = {
  'tag: Staking rewards': { tag_ids: [staking] },
  'tag: Gas fees': { tag_ids: [gas] },
  'tag: Payroll (rare)': { tag_ids: [payroll] },
  'tag + chain + 6 months': { tag_ids: [staking], chain: 'ethereum', start_date: '2026-05-01', end_date: '2026-10-31' },
  'has_tags=true': { has_tags: true },
  'has_tags=false': { has_tags: false },
  'has_tags=true + wallet + one year': { has_tags: true, wallet_ids: ['wal_bench_treasury_1'], start_date: '2025-11-01', end_date: '2026-10-31' },
};
const rows = [['filter', 'rows', 'rollups (ms)', 'rows (ms)', 'ratio', 'equal']];
let worst = Infinity;
let worstTag = Infinity;
let allEqual = true;
function measure(name, input, fastFn, track) {
  const filter = buildFilter(input, 'INVALID_PARAMETERS');
  const fast = median(() => fastFn(filter));
  const slow = median(() => totalsFromRows(db, WS, filter));
  const equal = isDeepStrictEqual(fast.result, slow.result);
  allEqual &&= equal;
  const ratio = slow.ms / fast.ms;
  track(ratio);
  rows.push([
    name,
    String(slow.result.count),
    fast.ms.toFixed(2),
    slow.ms.toFixed(1),
    `${ratio.toFixed(0)}×`,
    equal ? 'yes' : `NO ${JSON.stringify(fast.result)} vs ${JSON.stringify(slow.result)}`,
  ]);
}
for (const [name, input] of Object.entries(CASES))
  measure(
    name,
    input,
    (f) => totalsFromRollups(db, WS, f),
    (r) => (worst = Math.min(worst, r)),
  );
for (const [name, input] of Object.entries(TAG_CASES))
  measure(
    name,
    input,
    (f) => totals(db, WS, f),
    (r) => (worstTag = Math.min(worstTag, r)),
  );
// No rollup: both columns are the rows (the same path twice), to show the cost.
measure(
  'two tags (no rollup)',
  { tag_ids: [staking, payroll] },
  (f) => totals(db, WS, f),
  () => {},
);
db.close();
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i])).join('  '));
console.log(
  `${runs} runs each, medians; smallest speed-up ${worst.toFixed(0)}× (target ≥ 10×): ${worst >= 10 ? 'ok' : 'MISSED'}; ` +
    `tag filters ${worstTag.toFixed(0)}× (target ≥ 20×): ${worstTag >= 20 ? 'ok' : 'MISSED'}; totals ${allEqual ? 'all equal' : 'DIFFER'}`,
);
process.exitCode = allEqual && worst >= 10 && worstTag >= 20 ? 0 : 1;

// The UK and Canadian tax reports (docs/jurisdictions.md) over the whole ledger against the plain
// CSV export of the same ledger (issue 22: each ≤ 2× the CSV export's time, peak RSS < 250 MB; the
// 30-day look-ahead of both must not make them quadratic: run it at 100k and at 1M and compare).
// The timing is bench/export-compare.mjs's. The reports are asked in USD (`currency`), the
// ledger's own, so no exchange rates are needed: the rules' cost is the same in any currency.
//   node bench/jurisdictions.mjs [LEDGER] [RUNS]    (default bench/data/ledger-100k.db, 3 runs)
// A ledger of bench/make-ledger.sh; run on a copy (the exports are recorded in it).
import { fileURLToPath } from 'node:url';
import { compareExports, measureExport } from './export-compare.mjs';

const BODIES = {
  csv: { format: 'csv' },
  // The US tax report of the same ledger, for reference (not a target here).
  us: { format: 'csv', report_type: 'tax' },
  uk: { format: 'csv', report_type: 'tax', options: { jurisdiction: 'uk', currency: 'USD' } },
  ca: { format: 'csv', report_type: 'tax', options: { jurisdiction: 'ca', currency: 'USD' } },
  // The same reports without their summary, so without the report notes' count (its worker
  // thread and its heap): the reports' own share (not a target).
  'uk-bare': { format: 'csv', report_type: 'tax', options: { jurisdiction: 'uk', currency: 'USD', include_summary: false } },
  'ca-bare': { format: 'csv', report_type: 'tax', options: { jurisdiction: 'ca', currency: 'USD', include_summary: false } },
};

if (process.argv[2] === '--one') await measureExport(process.argv[3], BODIES[process.argv[4]]);

compareExports({
  script: fileURLToPath(import.meta.url),
  command: 'node bench/jurisdictions.mjs',
  ledger: process.argv[2] ?? 'bench/data/ledger-100k.db',
  runs: Number(process.argv[3] ?? 3),
  kinds: Object.keys(BODIES),
  untargeted: ['us', 'uk-bare', 'ca-bare'],
});

// Form 8949, roll-forward and positions CSVs against the plain CSV export of the same ledger
// (issue 20: each ≤ 2× the CSV export's time, peak RSS < 250 MB). Each export runs in a child
// process of its own (its peak RSS is its own), the kinds interleaved run by run; medians and
// the ratios to the CSV export are printed with the load average, of wall time (the target) and of
// CPU time (user + system, all threads: steadier on a shared machine). Every row of ws_bench, no
// filter: the reports' tax ledger reads all history, as a year's report does.
//   node bench/forms.mjs [LEDGER] [RUNS]    (default bench/data/ledger-1m.db, 3 runs)
// A ledger of bench/make-ledger.sh; run on a copy (the exports are recorded in it).
import { fileURLToPath } from 'node:url';
import { compareExports, measureExport } from './export-compare.mjs';

if (process.argv[2] === '--one') {
  const [, , , path, reportType] = process.argv;
  await measureExport(path, { format: 'csv', ...(reportType !== 'csv' ? { report_type: reportType } : {}) });
}

const ledger = process.argv[2] ?? 'bench/data/ledger-1m.db';
const runs = Number(process.argv[3] ?? 3);
// The tax CSV is the reference the three build on (its tax ledger is theirs): not a target.
const KINDS = ['csv', 'tax', 'form8949', 'rollforward', 'positions'];
compareExports({ script: fileURLToPath(import.meta.url), command: 'node bench/forms.mjs', ledger, runs, kinds: KINDS, untargeted: ['tax'] });

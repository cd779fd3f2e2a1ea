// The floor of an export's SQL: steps the very row SQL the CSV (or JSON) fast path runs, tag sets
// included, on one thread through better-sqlite3, and writes nothing.
// node bench/export-floor.mjs LEDGER csv|json  → prints rows, seconds, rows/s, CPU seconds.
import { Engine } from '../dist/engine/engine.js';
import { csvRawRows } from '../dist/store/csv-rows.js';
import { transactionJsonRows } from '../dist/store/json-rows.js';
import { readTagSets } from '../dist/store/tag-sets.js';
import { CSV_COLUMNS } from '../dist/core/export-values.js';

const [path, format] = process.argv.slice(2);
const engine = Engine.open(path);
engine.db.pragma('mmap_size = 0'); // as the export's reader
const t0 = process.hrtime.bigint();
const c0 = process.cpuUsage();
const tagsText = format === 'csv' ? (tags) => tags.map((t) => t.name).join('; ') : (tags) => JSON.stringify(tags);
const tagSets = readTagSets(engine.db, 'ws_bench', 1e9, tagsText);
const rows =
  format === 'csv' ? csvRawRows(engine.db, 'ws_bench', {}, CSV_COLUMNS, 'YYYY-MM-DD', tagSets) : transactionJsonRows(engine.db, 'ws_bench', {}, tagSets);
let n = 0;
for (const _ of rows) n++;
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(c0);
console.log(
  JSON.stringify({
    format: `${format} floor`,
    rows: n,
    seconds: +seconds.toFixed(2),
    rows_per_s: Math.round(n / seconds),
    cpu_s: +((cpu.user + cpu.system) / 1e6).toFixed(2),
  }),
);
engine.close();

// One export of every row of ws_bench in FORMAT, through the engine's job path (as `txa export create`):
// node bench/export-run.mjs LEDGER FORMAT [REPORT_TYPE]  → prints rows, seconds, rows/s, file bytes.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../dist/engine/engine.js';
import { createExport } from '../dist/engine/exports.js';

const [path, format, reportType] = process.argv.slice(2);
const engine = Engine.open(path);
const t0 = process.hrtime.bigint();
const rec = await createExport(engine, 'ws_bench', { format, ...(reportType ? { report_type: reportType } : {}) });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(
  JSON.stringify({
    format,
    ...(reportType ? { report_type: reportType } : {}),
    rows: rec.transaction_count,
    seconds: +seconds.toFixed(2),
    rows_per_s: Math.round(rec.transaction_count / seconds),
    bytes: rec.file_size,
  }),
);
// The file is the bench's only output: removed, so repeated runs do not fill the disk.
const { file_name: fileName } = engine.db.prepare('SELECT file_name FROM exports WHERE id = ?').get(rec.id);
rmSync(join(engine.dir('exports'), fileName), { force: true });
engine.close();

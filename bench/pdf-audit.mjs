// One PDF export (`detailed` or `audit`) of the rows of ws_bench between two dates, through the
// engine's job path as `txa export create` runs it, on a ledger built by bench/make-ledger.sh.
// Prints rows, wall and CPU seconds and peak RSS. The export record and file are removed after.
//   node bench/pdf-audit.mjs LEDGER REPORT_TYPE START_DATE END_DATE
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../dist/engine/engine.js';
import { createExport } from '../dist/engine/exports.js';

const [path, reportType, start, end] = process.argv.slice(2);
if (!end) {
  console.error('usage: node bench/pdf-audit.mjs LEDGER detailed|audit START_DATE END_DATE');
  process.exit(2);
}
const engine = Engine.open(path);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const rec = await createExport(engine, 'ws_bench', { format: 'pdf', report_type: reportType, filters: { start_date: start, end_date: end } });
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const { file_name: fileName } = engine.db.prepare('SELECT file_name FROM exports WHERE id = ?').get(rec.id);
rmSync(join(engine.dir('exports'), fileName), { force: true });
engine.db.prepare('DELETE FROM exports WHERE id = ?').run(rec.id);
engine.close();
console.log(
  JSON.stringify({
    report: reportType,
    status: rec.status,
    rows: rec.transaction_count,
    seconds: +seconds.toFixed(2),
    cpu_seconds: +((cpu.user + cpu.system) / 1e6).toFixed(2),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    bytes: rec.file_size,
  }),
);

/**
 * `audit`: every transaction with its hash, explorer URL, tags, notes, attachments (embedded in
 * the PDF as files) and change history, plus the SHA-256 of the exported data on the first and
 * last page. Records have variable height: each is wrapped into lines, then drawn line by line.
 * The rows are read once: the first page's hash is written into a spot reserved for it
 * (Canvas.later) once the last row is hashed.
 */
import { existsSync } from 'node:fs';
import { DataHash } from '../audit-hash.js';
import { COLORS, type Canvas, type TextStyle } from '../canvas.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from '../chrome.js';
import { Flow, type Render } from '../flow.js';
import { dateTime, fiat, groupDigits } from '../format.js';
import { progress } from '../progress.js';
import { tableSpec } from '../table.js';
import type { Transaction } from '../../../core/types.js';
import { changeText, sourceText } from '../../../core/changes.js';
import { batches } from '../../../core/batches.js';
import type { ExportJob, HistoryEntry } from '../../types.js';

const LINE = 10;
const PAD = 4;
const LABEL_W = 62;
const STYLE: TextStyle = { size: 7 };
const LABEL: TextStyle = { size: 7, bold: true, color: COLORS.muted };
/**
 * Rows whose histories are read in one statement: a few dozen take most of the saving; more
 * keep more rows alive across collections, and the audit's peak RSS is close to its 250 MB budget.
 */
const HISTORY_BATCH = 32;
const HASH_DEFINITION =
  'SHA-256 of the transactions below, in order, each as canonical JSON (keys sorted, no spaces) plus a line feed, UTF-8; see docs/reports.md.';

interface DetailLine {
  label: string;
  text: string;
}

interface Attachment {
  path: string;
  name: string;
  description: string;
}

interface AuditRecord {
  left: string[];
  right: DetailLine[];
  attachments: Attachment[];
}

export function auditReport(job: ExportJob): Render {
  const spec = tableSpec(
    CONTENT_LEFT,
    CONTENT_WIDTH,
    [
      { label: 'Transaction', weight: 1 },
      { label: 'Details', weight: 3.3 },
    ],
    7,
  );
  const leftWidth = spec.columns[0]!.width;
  const detailWidth = spec.columns[1]!.width - LABEL_W - 6;
  return async (flow) => {
    const canvas = flow.canvas;
    let printFirstDigest = (_digest: string): void => undefined;
    flow.section('Audit summary', 3 * 12);
    flow.block(3 * 12, (y) => {
      const later = canvas.later();
      printFirstDigest = (digest) => canvas.fill(later, () => digestLine(canvas, y, digest));
      hashLines(canvas, y, job.transactionCount, null);
    });
    flow.gap(10);

    flow.beginTable(spec, 'Audit trail', 'History from the event log, oldest change first');
    const hash = new DataHash();
    const names = new Set<string>();
    const tick = progress(job);
    for (const batch of batches(job.rows(), HISTORY_BATCH)) {
      const histories = job.histories(batch.map((tx) => tx.id));
      for (const tx of batch) {
        hash.add(tx);
        const record = recordOf(canvas, job, tx, histories.get(tx.id) ?? [], detailWidth, names);
        drawRecord(flow, record, spec.x, leftWidth, detailWidth);
        tick.tick();
        await canvas.drain();
      }
    }
    flow.endTable();
    tick.done();
    const digest = hash.hex();
    printFirstDigest(digest);

    flow.section('End of audit trail', 3 * 12);
    flow.block(3 * 12, (y) => hashLines(canvas, y, job.transactionCount, digest));
  };
}

/** The hash block; without `digest` (the first page's, not known yet) its line is left out. */
function hashLines(canvas: Canvas, y: number, count: number, digest: string | null): void {
  canvas.text(`Transactions: ${count}`, CONTENT_LEFT, y, CONTENT_WIDTH, { size: 8 });
  if (digest !== null) digestLine(canvas, y, digest);
  canvas.text(HASH_DEFINITION, CONTENT_LEFT, y + 24, CONTENT_WIDTH, { size: 7, color: COLORS.muted });
}

function digestLine(canvas: Canvas, y: number, digest: string): void {
  canvas.text(`Data SHA-256: ${digest}`, CONTENT_LEFT, y + 12, CONTENT_WIDTH, { size: 8, bold: true });
}

function recordOf(canvas: Canvas, job: ExportJob, tx: Transaction, history: HistoryEntry[], width: number, names: Set<string>): AuditRecord {
  const left = [
    dateTime(tx.timestamp),
    tx.wallet_label,
    `${tx.chain ?? 'exchange'} · ${tx.type}`,
    `${tx.direction} ${groupDigits(tx.amount)} ${tx.token.symbol}`,
    `${fiat(tx.fiat_value)} ${job.options.currency}`,
  ];
  const right: DetailLine[] = [];
  const add = (label: string, text: string) => {
    for (const [i, line] of canvas.wrap(text, width, STYLE).entries()) right.push({ label: i === 0 ? label : '', text: line });
  };
  add('Hash', tx.tx_hash);
  // Printed, not a link annotation: pdfkit keeps every annotation in memory until the end, which
  // grew a 50,000-record audit past 400 MB; viewers turn printed URLs into links themselves.
  add('Explorer', tx.explorer_url || '—');
  add('From → to', `${tx.from_address} → ${tx.to_address}`);
  add('Tags', tx.tags.map((t) => t.name).join(', ') || '—');
  add('Notes', tx.notes ?? '—');
  const attachments: Attachment[] = [];
  for (const a of tx.attachments) {
    const path = job.attachmentPath(a.id);
    if (!existsSync(path)) {
      add('Attachment', `${a.file_name} (${size(a.file_size)}): file missing from the store, not embedded`);
      continue;
    }
    // Embedded files are keyed by name in the PDF, so a repeated name gets the attachment id.
    const name = names.has(a.file_name) ? `${a.id}-${a.file_name}` : a.file_name;
    names.add(name);
    attachments.push({ path, name, description: `Attachment ${a.id} of transaction ${tx.id} (${tx.tx_hash})` });
    add('Attachment', `${a.file_name} (${size(a.file_size)}), embedded as "${name}"`);
  }
  // Each change: when, what and who, then every field's old → new value, one line each.
  if (history.length === 0) add('History', 'no recorded changes');
  history.forEach((h, i) => {
    add(i === 0 ? 'History' : '', `${dateTime(h.created_at)}  ${h.event} by ${h.actor ?? 'unknown'}`);
    for (const [field, change] of Object.entries(h.changes)) add('', `  ${changeText(field, change)}`);
    if (h.source) add('', `  ${sourceText(h.source)}`);
  });
  return { left, right, attachments };
}

/** Draws a record line by line; it stays on one page when it fits on one. */
function drawRecord(flow: Flow, record: AuditRecord, x: number, leftWidth: number, _detailWidth: number): void {
  const lines = Math.max(record.left.length, record.right.length);
  const pageLines = Math.floor((Flow.pageRoom - 30) / LINE);
  flow.ensure(Math.min(lines, pageLines) * LINE + PAD);
  flow.rowBlock(PAD, (y) => flow.canvas.line(x, y + 1, x + CONTENT_WIDTH, y + 1));
  for (let i = 0; i < lines; i++) {
    flow.rowBlock(LINE, (y) => {
      const left = record.left[i];
      if (left !== undefined) flow.canvas.text(left, x + 3, y, leftWidth - 6, i === 0 ? { ...STYLE, bold: true } : STYLE);
      const right = record.right[i];
      if (right) {
        const rx = x + leftWidth + 3;
        if (right.label) flow.canvas.text(right.label, rx, y, LABEL_W - 4, LABEL);
        // A line of canvas.wrap: it fits.
        flow.canvas.fitted(right.text, rx + LABEL_W, y, STYLE);
      }
    });
  }
  for (const a of record.attachments) flow.canvas.attach(a.path, a.name, a.description);
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

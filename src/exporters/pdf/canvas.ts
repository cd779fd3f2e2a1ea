/**
 * The drawing surface of a report: a pdfkit document streamed to a file (never `bufferPages`, so
 * memory stays flat), with text helpers that pick the font per script run, measure, truncate
 * with an ellipsis and wrap. A layout measures with the same helpers it draws with, so what it
 * measures is what it draws.
 */
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createWriteStream, type WriteStream } from 'node:fs';
import PDFDocument from 'pdfkit';
import { resolveFonts, scriptRuns, type FontFiles } from './fonts.js';
import { deflatePageAt, PageForm, TextBatch, useSimpleLayout, widthOf } from './pdfkit-internals.js';

export const PAGE_WIDTH = 841.89; // A4 landscape, in points
export const PAGE_HEIGHT = 595.28;
export const MARGIN = 36;

export const COLORS = {
  text: '#1a1a1a',
  muted: '#5f6670',
  rule: '#c9ced6',
  headerFill: '#e6ebf2',
  zebra: '#f5f7fa',
  brand: '#1f3a5f',
  accent: '#2bb3a3',
  inflow: '#2e7d32',
  outflow: '#c62828',
};

/** Text of a page drawn after the page (Canvas.later). */
export type Later = PageForm;

export interface TextStyle {
  size: number;
  bold?: boolean;
  color?: string;
}

type Face = 'regular' | 'bold' | 'cjk';
export type Align = 'left' | 'right' | 'center';

/** Output stays below this many buffered bytes before the writer waits for the disk. */
const MAX_BUFFERED = 8 * 1024 * 1024;
/**
 * What the file stream takes before it asks the document to pause. With the default 16 KiB each
 * page (tens of KiB) paused the pipe, which moved one page per turn of the event loop (the
 * report yields every YIELD_MS) while an audit made several: its output piled up in the
 * document's buffer, 70 MB at 50,000 rows. A larger mark lets every turn write all that is ready.
 */
const FILE_HIGH_WATER_MARK = 1024 * 1024;
/** zlib level of the pages' content (pdfkit's is 6); see deflatePageAt. */
const PAGE_DEFLATE_LEVEL = 1;
/** Laying out rows is all CPU: the writer lets the event loop in at least this often (signals, the job's heartbeat). */
const YIELD_MS = 50;

export class Canvas {
  private readonly doc: PDFKit.PDFDocument;
  private readonly out: WriteStream;
  private cjkUsable: boolean;
  private face: Face | null = null;
  private size = 0;
  private batch: TextBatch;
  private forms = 0;
  private unfilled = 0;
  private lastTurn = Date.now();

  constructor(destPath: string, info: { title: string; author: string; createdAt: Date }, fonts: FontFiles = resolveFonts()) {
    this.doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      autoFirstPage: false,
      margin: 0,
      // Our layout is a cheap character-map lookup (pdfkit-internals.ts); pdfkit's per-word
      // cache of it would only grow with every distinct amount and hash.
      fontLayoutCache: false,
      info: { Title: info.title, Author: info.author, Creator: 'txa', CreationDate: info.createdAt },
    });
    this.doc.registerFont('regular', fonts.regular);
    this.doc.registerFont('bold', fonts.bold);
    this.cjkUsable = fonts.cjk !== null;
    if (fonts.cjk !== null) this.doc.registerFont('cjk', fonts.cjk, fonts.cjkFamily as string);
    this.out = createWriteStream(destPath, { highWaterMark: FILE_HIGH_WATER_MARK });
    this.doc.pipe(this.out);
    this.batch = new TextBatch(this.doc);
    this.useFace('regular', 8);
  }

  addPage(): void {
    this.batch.flush();
    this.doc.addPage({ size: 'A4', layout: 'landscape', margin: 0 });
    deflatePageAt(this.doc, PAGE_DEFLATE_LEVEL);
  }

  /** Width of `text` in points, as `text()` would draw it. */
  width(text: string, style: TextStyle): number {
    return this.runsWidth(scriptRuns(text), style);
  }

  /**
   * Draws one line of text with its top at `y`, inside [x, x + width], aligned as asked,
   * cut with an ellipsis when it does not fit. Returns the drawn width.
   */
  text(text: string, x: number, y: number, width: number, style: TextStyle, align: Align = 'left'): number {
    if (text === '') return 0;
    let runs = scriptRuns(text);
    let w = this.runsWidth(runs, style);
    if (w > width) {
      runs = scriptRuns(this.fit(text, width, style));
      w = this.runsWidth(runs, style);
    }
    this.draw(runs, align === 'right' ? x + width - w : align === 'center' ? x + (width - w) / 2 : x, y, style);
    return w;
  }

  /** Draws a line known to fit (one of `wrap`'s), left-aligned at `x`, without measuring it again. */
  fitted(text: string, x: number, y: number, style: TextStyle): void {
    if (text !== '') this.draw(scriptRuns(text), x, y, style);
  }

  private draw(runs: { text: string; cjk: boolean }[], x: number, y: number, style: TextStyle): void {
    let at = x;
    for (const run of runs) {
      this.useFace(this.faceOf(run.cjk, style), style.size);
      this.batch.add(run.text, at, y, style.color ?? COLORS.text);
      if (runs.length > 1) at += widthOf(this.doc, run.text);
    }
  }

  /** The longest prefix of `text` (with "…" when cut) that fits in `width`. */
  fit(text: string, width: number, style: TextStyle): string {
    if (this.width(text, style) <= width) return text;
    const chars = Array.from(text);
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.width(chars.slice(0, mid).join('') + '…', style) <= width) lo = mid;
      else hi = mid - 1;
    }
    return chars.slice(0, lo).join('') + '…';
  }

  /** Breaks text into lines no wider than `width`: at spaces, else between characters (CJK, hashes, URLs). */
  wrap(text: string, width: number, style: TextStyle): string[] {
    if (!text.includes('\n') && this.width(text, style) <= width) return [text];
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = '';
      for (const word of paragraph.split(/(?<= )/)) {
        if (this.width(line + word, style) <= width) {
          line += word;
          continue;
        }
        if (line !== '') lines.push(line.trimEnd());
        line = '';
        for (const ch of Array.from(word)) {
          if (line !== '' && this.width(line + ch, style) > width) {
            lines.push(line);
            line = '';
          }
          line += ch;
        }
      }
      lines.push(line.trimEnd());
    }
    return lines;
  }

  /**
   * Reserves the current page for text known only later (the page count, the audit's data hash):
   * `fill` draws it, with the same helpers, once it is known, whichever page is current then.
   */
  later(): Later {
    this.batch.flush();
    this.unfilled++;
    const form = new PageForm(this.doc, `TxaLater${++this.forms}`, false);
    form.place();
    return form;
  }

  fill(later: Later, draw: () => void): void {
    this.drawInto(later, draw);
    this.unfilled--;
  }

  /**
   * What is the same on every page (the header, the footer's left part): drawn once into a
   * form, which the returned function paints on the current page, the way a PDF reuses content.
   */
  shared(draw: () => void): () => void {
    const form = new PageForm(this.doc, `TxaShared${++this.forms}`, true);
    this.drawInto(form, draw);
    return () => {
      this.batch.flush();
      form.place();
    };
  }

  private drawInto(form: PageForm, draw: () => void): void {
    this.batch.flush();
    const page = this.batch;
    try {
      form.end((batch) => {
        this.batch = batch;
        draw();
      });
    } finally {
      this.batch = page;
    }
  }

  rect(x: number, y: number, w: number, h: number, fill: string): void {
    this.vector((doc) => doc.rect(x, y, w, h).fill(fill));
  }

  line(x1: number, y1: number, x2: number, y2: number, color = COLORS.rule, width = 0.5): void {
    this.batch.stroke(x1, y1, x2, y2, color, width);
  }

  /** Any other drawing on the pdfkit document, after the text so far (paint order). */
  vector(draw: (doc: PDFKit.PDFDocument) => void): void {
    this.batch.flush();
    draw(this.doc);
  }

  /** Embeds a file in the PDF as a document-level attachment (listed by `pdfdetach -list`). */
  attach(path: string, name: string, description: string): void {
    this.doc.file(path, { name, description });
  }

  /** Bytes of output made but not yet written to the file. */
  get buffered(): number {
    return this.out.writableLength + this.doc.readableLength;
  }

  /** Waits while more than a few megabytes of output are still unwritten, else now and then for one turn of the event loop. */
  async drain(): Promise<void> {
    if (this.buffered > MAX_BUFFERED) await once(this.out, 'drain');
    else if (Date.now() - this.lastTurn >= YIELD_MS) await nextTurn();
    else return;
    this.lastTurn = Date.now();
  }

  /** Ends the document and resolves with the file size once it is on disk. */
  /**
   * A key of the document's information dictionary, written when the file ends (so a report may
   * set it after drawing). ASCII values only: they are stored as plain PDF strings, which a reader
   * finds in the file's bytes (the tax report's totals, docs/exports.md "Tax totals in the terminal").
   */
  setInfo(key: string, value: string): void {
    (this.doc.info as Record<string, unknown>)[key] = value;
  }

  async finish(): Promise<number> {
    // pdfkit would wait for an unwritten form forever and never end the file.
    if (this.unfilled > 0) throw new Error(`PDF layout left ${this.unfilled} reserved spot(s) unwritten`);
    this.batch.flush();
    const done = once(this.out, 'finish');
    this.doc.end();
    await done;
    return this.out.bytesWritten;
  }

  /** Abandons the document (after an error), closing the file. */
  abort(): void {
    this.doc.unpipe(this.out);
    // A write still in flight fails with ERR_STREAM_DESTROYED: expected here, and it must not end the process.
    this.out.on('error', () => undefined);
    this.out.destroy();
  }

  private runsWidth(runs: { text: string; cjk: boolean }[], style: TextStyle): number {
    let total = 0;
    for (const run of runs) {
      this.useFace(this.faceOf(run.cjk, style), style.size);
      total += widthOf(this.doc, run.text);
    }
    return total;
  }

  private faceOf(cjk: boolean, style: TextStyle): Face {
    if (cjk && this.cjkUsable) return 'cjk';
    return style.bold ? 'bold' : 'regular';
  }

  private useFace(face: Face, size: number): void {
    if (face !== this.face) {
      try {
        this.doc.font(face);
      } catch {
        // An unreadable CJK font file: fall back to DejaVu for good rather than fail the export.
        this.cjkUsable = false;
        face = 'regular';
        this.doc.font(face);
      }
      useSimpleLayout(this.doc);
      this.face = face;
    }
    if (size !== this.size) {
      this.doc.fontSize(size);
      this.size = size;
    }
  }
}

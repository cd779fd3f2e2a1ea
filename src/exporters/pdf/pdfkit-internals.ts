/**
 * Where the reports reach past pdfkit's public API, kept together so a pdfkit upgrade has one
 * file to check (every PDF test exercises both). Each one is what keeps a
 * 50,000-row report within its time and memory budget (docs/reports.md "How the layout works, and performance").
 */
import { deflateSync } from 'node:zlib';

interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth: number;
}

interface EmbeddedFont {
  font?: { glyphForCodePoint(cp: number): Glyph };
  scale?: number;
  layout?: (text: string, features?: unknown, onlyWidth?: boolean) => { glyphs: Glyph[] | null; positions: Position[] | null; advanceWidth: number };
  txaSimpleLayout?: true;
  txaAdvance?: (text: string) => number;
  txaGlyphs?: { bmp: (string | undefined)[]; surrogates: Map<number, string> };
  id?: string;
  ascender?: number;
  encode?: (text: string) => [string[], Position[]];
  ref?: () => unknown;
}

interface Reference {
  data: Record<string, unknown>;
  compress: boolean;
  buffer: Uint8Array[];
  write(chunk: string | Uint8Array): void;
  end(): void;
  finalize(): void;
}

interface Internals {
  _font?: EmbeddedFont;
  _fontSize: number;
  page: { width: number; height: number; fonts: Record<string, unknown>; xobjects: Record<string, Reference>; content: Reference };
  ref(data: Record<string, unknown>): Reference;
}

const internals = (doc: PDFKit.PDFDocument) => doc as unknown as Internals;

/**
 * Lays out the current embedded font glyph by glyph from its character map, without OpenType
 * shaping: table cells need neither kerning nor ligatures, and shaping was a third of the time
 * of a large report. Standard (AFM) fonts have no `font` and are left alone.
 */
export function useSimpleLayout(doc: PDFKit.PDFDocument): void {
  const current = internals(doc)._font;
  if (!current || current.txaSimpleLayout || !current.font || current.scale === undefined) return;
  const font = current.font;
  const scale = current.scale;
  const byCodePoint = new Map<number, { glyph: Glyph; advance: number }>();
  const lookup = (ch: string) => {
    const cp = ch.codePointAt(0)!;
    let entry = byCodePoint.get(cp);
    if (!entry) {
      const glyph = font.glyphForCodePoint(cp);
      entry = { glyph, advance: glyph.advanceWidth * scale };
      byCodePoint.set(cp, entry);
    }
    return entry;
  };
  // Widths are asked of every cell and every wrapped line: the advances of the Basic
  // Multilingual Plane in a flat array (−1 until looked up), read by UTF-16 code unit.
  const bmp = new Float64Array(0x10000).fill(-1);
  // The sum of advances of `text`, in font units scaled to 1000 per em.
  const advanceOf = (text: string) => {
    let advanceWidth = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let advance = bmp[unit]!;
      if (advance < 0) {
        if (unit >= 0xd800 && unit <= 0xdfff) {
          // A surrogate: the code point it starts (or a lone one) goes through the map.
          const ch = String.fromCodePoint(text.codePointAt(i)!);
          advanceWidth += lookup(ch).advance;
          i += ch.length - 1;
          continue;
        }
        advance = bmp[unit] = lookup(text[i]!).advance;
      }
      advanceWidth += advance;
    }
    return advanceWidth;
  };
  current.txaAdvance = advanceOf;
  // Replaces the whole layout (pdfkit's splits text into words and joins their runs again).
  current.layout = (text: string, _features?: unknown, onlyWidth?: boolean) => {
    if (onlyWidth) return { glyphs: null, positions: null, advanceWidth: advanceOf(text) };
    let advanceWidth = 0;
    const glyphs: Glyph[] = [];
    const positions: Position[] = [];
    for (const ch of text) {
      const { glyph, advance } = lookup(ch);
      glyphs.push(glyph);
      positions.push({ xAdvance: advance, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: advance });
      advanceWidth += advance;
    }
    return { glyphs, positions, advanceWidth };
  };
  current.txaSimpleLayout = true;
}

/**
 * `doc.widthOfString(text)` in the current font and size, straight from useSimpleLayout's
 * advances for its fonts: no options object, layout result or three calls per measurement (every
 * cell and wrapped line is measured). The arithmetic is pdfkit's, so the number is the same.
 */
export function widthOf(doc: PDFKit.PDFDocument, text: string): number {
  const d = internals(doc);
  const advance = d._font?.txaAdvance;
  if (!advance) return doc.widthOfString(text);
  // pdfkit's: (font width + characterSpacing 0 × gaps) × horizontalScaling 100 / 100, the scaling kept for bit-equal widths.
  return (advance(text) * (d._fontSize / 1000) * 100) / 100;
}

/**
 * The glyph ids of `text` as the bytes of a PDF literal string (two per glyph, the font's
 * Identity-H encoding), one code point at a time through a per-font cache. The first use of a
 * character goes through the font's own `encode`, which adds the glyph to the subset and records
 * its width and Unicode value, so the document is the same as with `encode(text)`; later uses
 * skip its layout, subset lookup and formatting, which were most of the time of drawing text.
 * A literal string is half the size of pdfkit's hex (`<0041>`), so half the bytes to deflate; the
 * glyph ids, and so the text a reader extracts, are the same. Only for fonts laid out by
 * useSimpleLayout (one glyph per code point); others go through `encode` whole.
 */
function encodeCached(font: EmbeddedFont, text: string): string {
  if (!font.txaSimpleLayout) return literalOf(font.encode!(text)[0]);
  // Indexed by UTF-16 code unit (an array read, not a hash lookup: this runs per character);
  // surrogates (a pair's code point, or a lone one) have no slot there and go through the map.
  const cache = (font.txaGlyphs ??= { bmp: new Array<string | undefined>(0x10000), surrogates: new Map() });
  let bytes = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let glyph = cache.bmp[unit];
    if (glyph === undefined) {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      glyph = cache.surrogates.get(cp);
      if (glyph === undefined) {
        glyph = literalOf(font.encode!(String.fromCodePoint(cp))[0]);
        if (unit >= 0xd800 && unit <= 0xdfff) cache.surrogates.set(cp, glyph);
        else cache.bmp[unit] = glyph;
      }
    }
    bytes += glyph;
  }
  return bytes;
}

/** Glyph ids as pdfkit's encode gives them (4 hex digits each) → literal string bytes, escaped where the syntax needs it. */
function literalOf(hexGlyphs: string[]): string {
  let out = '';
  for (const hex of hexGlyphs) {
    for (let i = 0; i < hex.length; i += 2) out += LITERAL_BYTE[parseInt(hex.slice(i, i + 2), 16)];
  }
  return out;
}

/** Each byte as it may stand in a literal string: parentheses and backslash escaped, and CR and LF (a reader would turn a CR into LF). */
const LITERAL_BYTE = Array.from({ length: 256 }, (_, b) =>
  b === 0x28 || b === 0x29 || b === 0x5c ? `\\${String.fromCharCode(b)}` : b === 0x0d ? '\\r' : b === 0x0a ? '\\n' : String.fromCharCode(b),
);

/**
 * Collects the text of a row (or any run of text) and writes it as one PDF text object, in a
 * single content write. pdfkit's own text call writes nine small chunks per cell (save, flip,
 * BT, position, font, glyphs, ET, restore, colour), each turned into its own byte array and
 * later copied again: over 500,000 cells that was a third of the time. The glyphs are encoded
 * by the font itself, so subsetting and the Unicode map (text extraction) work as usual.
 */
export class TextBatch {
  private ops: string[] = [];
  private font: EmbeddedFont | null = null;
  private size = 0;
  private color = '';
  private strokeStyle = '';
  private readonly colors = new Map<string, string>();

  /** Writes to `target` when given (a form XObject), else to the document's current page. */
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly target?: TextTarget,
  ) {}

  /** Adds a line in the document's current font and size, its top-left at (x, y) in page space. */
  add(text: string, x: number, y: number, color: string): void {
    const d = internals(this.doc);
    const font = d._font!;
    const size = d._fontSize;
    const glyphs = encodeCached(font, text);
    if (glyphs === '') return;
    if (font !== this.font || size !== this.size) {
      const fonts = this.target?.fonts ?? d.page.fonts;
      if (fonts[font.id!] == null) fonts[font.id!] = font.ref!();
      this.ops.push(`/${font.id} ${size} Tf`);
      this.font = font;
      this.size = size;
    }
    if (color !== this.color) {
      this.ops.push(`${this.rgb(color)} rg`);
      this.color = color;
    }
    // Text space is the PDF's own (origin bottom left); pdfkit's page space is flipped.
    const baseline = d.page.height - y - (font.ascender! / 1000) * size;
    this.ops.push(`1 0 0 1 ${round(x)} ${round(baseline)} Tm (${glyphs}) Tj`);
  }

  /**
   * A straight line, in page space, between the text before and after it (paint order kept):
   * pdfkit's own path calls write six small chunks per line, and flushing the text before them
   * cost one content write per audit record.
   */
  stroke(x1: number, y1: number, x2: number, y2: number, color: string, width: number): void {
    const height = this.target?.height ?? internals(this.doc).page.height;
    const style = `${width} w ${this.rgb(color)} RG`;
    // Paths are drawn outside a text object; the font and fill colour persist across it.
    this.ops.push(`ET ${style === this.strokeStyle ? '' : `${style} `}${round(x1)} ${round(height - y1)} m ${round(x2)} ${round(height - y2)} l S BT`);
    this.strokeStyle = style;
  }

  /** Writes the collected text and lines; call before any other drawing so paint order is kept. */
  flush(): void {
    if (this.ops.length === 0) return;
    const height = this.target?.height ?? internals(this.doc).page.height;
    // Bytes, not a string: the glyphs are binary (one char per byte), and Buffer's latin1
    // encoder does what pdfkit's per-character loop would.
    const content = Buffer.from(`q 1 0 0 -1 0 ${height} cm BT\n${this.ops.join('\n')}\nET Q\n`, 'latin1');
    if (this.target) this.target.write(content);
    else this.doc.addContent(content);
    this.ops = [];
    this.font = null;
    this.color = '';
    this.strokeStyle = '';
  }

  /** `#rrggbb` as the operands of `rg` / `RG`. */
  private rgb(hex: string): string {
    let op = this.colors.get(hex);
    if (!op) {
      const [r, g, b] = [1, 3, 5].map((i) => round(parseInt(hex.slice(i, i + 2), 16) / 255, 1000));
      op = `${r} ${g} ${b}`;
      this.colors.set(hex, op);
    }
    return op;
  }
}

/** Where a TextBatch writes other than the current page: its font resources and content. */
interface TextTarget {
  height: number;
  fonts: Record<string, unknown>;
  write(content: Uint8Array): void;
}

/**
 * A form XObject the size of the page: content a page paints by name. Written later, it is how a
 * page shows text known only once the document is done ("Page N of M", the audit's data hash)
 * while the page itself has already streamed to the file; written once and painted by every
 * page, it is the chrome all pages share. pdfkit writes its cross-reference table only once every
 * object is written, so a form must be ended, and before the document ends (the fonts' subsets
 * are written then, and must include the form's glyphs).
 */
export class PageForm {
  private readonly ref: Reference;
  private readonly fonts: Record<string, unknown> = {};
  private readonly height: number;

  /** `compress: false` for a line of text: each deflateSync sets up a fresh zlib stream (≈ 0.3 ms
   * and 256 KiB of native memory until the next GC), which thousands of footers would pay for. */
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly name: string,
    compress: boolean,
  ) {
    const page = internals(doc).page;
    this.height = page.height;
    this.ref = internals(doc).ref({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, page.width, page.height], Resources: { Font: this.fonts } });
    this.ref.compress = compress;
  }

  /** Paints the form on the current page, at this point of its content. */
  place(): void {
    internals(this.doc).page.xobjects[this.name] = this.ref;
    this.doc.addContent(`/${this.name} Do`);
  }

  /**
   * Runs `draw`, whose text goes into this form through the batch it is given, and whose vector
   * drawing (pdfkit's own calls, which write through addContent) too; then writes the form.
   */
  end(draw: (batch: TextBatch) => void): void {
    const batch = new TextBatch(this.doc, { height: this.height, fonts: this.fonts, write: (content) => this.ref.write(content) });
    const doc = this.doc as unknown as { addContent(data: string): unknown };
    const pageContent = doc.addContent;
    doc.addContent = (data: string) => {
      this.ref.write(data);
      return this.doc;
    };
    try {
      draw(batch);
      batch.flush();
    } finally {
      doc.addContent = pageContent;
    }
    // A form is a stream: an empty one still needs its (empty) content.
    if (this.ref.data.Length === undefined) this.ref.write('');
    this.ref.end();
  }
}

const round = (n: number, by = 100) => Math.round(n * by) / by;

/**
 * Compresses the current page's content at `level` when pdfkit ends the page, instead of at
 * pdfkit's 6: the audit's page content took a quarter of its time to compress, and level 1 takes
 * half of that for about 8 % more bytes (bench/RESULTS.md, session 7). Only the page content: the
 * fonts and other objects keep pdfkit's level.
 */
export function deflatePageAt(doc: PDFKit.PDFDocument, level: number): void {
  const ref = internals(doc).page.content;
  const finalize = ref.finalize.bind(ref);
  ref.compress = false;
  ref.finalize = () => {
    if (ref.buffer.length > 0) {
      ref.buffer = [deflateSync(Buffer.concat(ref.buffer), { level })];
      ref.data.Filter = 'FlateDecode';
    }
    finalize();
  };
}

/**
 * The two places where the reports reach past pdfkit's public API, kept together so a pdfkit
 * upgrade has one file to check (the PDF tests exercise both). Each one is what keeps a
 * 50,000-row report within its time and memory budget (docs/reports.md, "Performance").
 */

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
  layoutRun?: (text: string, features?: unknown) => { glyphs: Glyph[]; positions: Position[]; advanceWidth: number };
  txaSimpleLayout?: true;
}

interface Internals {
  _font?: EmbeddedFont;
  _fontFamilies?: Record<string, EmbeddedFont>;
  _fragment(text: string, x: number, y: number, options: { textWidth: number; wordCount: number }): void;
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
  const byCodePoint = new Map<number, Glyph>();
  current.layoutRun = (text: string) => {
    const glyphs: Glyph[] = [];
    const positions: Position[] = [];
    let advanceWidth = 0;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      let glyph = byCodePoint.get(cp);
      if (!glyph) {
        glyph = font.glyphForCodePoint(cp);
        byCodePoint.set(cp, glyph);
      }
      const advance = glyph.advanceWidth * scale;
      glyphs.push(glyph);
      positions.push({ xAdvance: advance, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: advance });
      advanceWidth += advance;
    }
    return { glyphs, positions, advanceWidth };
  };
  current.txaSimpleLayout = true;
}

/**
 * pdfkit's one-line text primitive, given the width already measured: the public `text()`
 * would lay the same string out twice more.
 */
export function drawFragment(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number): void {
  internals(doc)._fragment(text, x, y, { textWidth: width, wordCount: 0 });
}

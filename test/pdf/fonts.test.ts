import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCjk, resolveFonts, scriptRuns } from '../../src/exporters/pdf/fonts.js';
import { makeJob, render, tagRef, tx } from './helpers.js';

const rows = [
  tx({ timestamp: '2024-01-01T00:00:00Z', amount: '1', direction: 'inflow', fiat_value: 1, wallet_label: '日本 Wallet €', tags: [tagRef('tag_rev')] }),
  tx({ timestamp: '2024-01-02T00:00:00Z', amount: '2', direction: 'inflow', fiat_value: 2, wallet_label: 'Café Ξ 한국 中文' }),
];

const fontsOf = (file: string) => execFileSync('pdffonts', [file], { encoding: 'utf8' });

describe('fonts', () => {
  it('splits text into CJK and other runs', () => {
    expect(hasCjk('Café €')).toBe(false);
    expect(scriptRuns('日本 Wallet')).toEqual([
      { text: '日本', cjk: true },
      { text: ' Wallet', cjk: false },
    ]);
    expect(scriptRuns('a 한국 b')).toEqual([
      { text: 'a ', cjk: false },
      { text: '한국', cjk: true },
      { text: ' b', cjk: false },
    ]);
    expect(scriptRuns('Ξ€')).toEqual([{ text: 'Ξ€', cjk: false }]);
  });

  it('embeds DejaVu Sans and, for CJK runs, the installed CJK font (CI: apt-get install fonts-ipafont-gothic)', async () => {
    expect(resolveFonts().cjk, 'no CJK font found: install fonts-ipafont-gothic (or set TXA_CJK_FONT)').not.toBeNull();
    const pdf = await render(makeJob({ rows, reportType: 'detailed' }));
    const fonts = fontsOf(pdf.file);
    expect(fonts).toMatch(/DejaVuSans\s.*yes\s+yes/);
    expect(fonts).toMatch(/IPAGothic|NotoSansCJK/);
    expect(pdf.text[0]).toContain('日本 Wallet €');
    expect(pdf.text[0]).toContain('Café Ξ');
    expect(pdf.text[0]).toContain('中文');
  });

  it('draws every glyph id, those whose bytes a PDF string escapes too, as the same text', async () => {
    // Glyph ids are numbered in order of first use, so 190 distinct characters in one font reach
    // ids 0x28, 0x29 and 0x5c: ( ) \ in a literal string, escaped or the content breaks. (CR and
    // LF, 0x0d and 0x0a, are escaped too, as the PDF spec asks; poppler reads them either way.)
    const chars = [...range(0x21, 0x7e), ...range(0xc0, 0xff), ...range(0x3b1, 0x3c9)].map((c) => String.fromCodePoint(c)).join('');
    const words = chars.match(/.{1,12}/gu)!;
    const row = tx({ timestamp: '2024-01-01T00:00:00Z', amount: '1', direction: 'inflow', notes: words.join(' ') });
    const pdf = await render(makeJob({ rows: [row], reportType: 'audit' }));
    const text = pdf.text.join('\n');
    for (const word of words) expect(text).toContain(word);
  });

  it('uses the CJK font TXA_CJK_FONT names (here IPA Gothic, the one CI installs)', async () => {
    const pdf = await render(makeJob({ rows, reportType: 'detailed' }), { TXA_CJK_FONT: '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf' });
    const fonts = fontsOf(pdf.file);
    expect(fonts).toMatch(/IPAGothic\s.*yes\s+yes\s+yes/);
    expect(fonts).not.toMatch(/NotoSansCJK/);
    expect(pdf.text[0]).toContain('日本 Wallet €');
  });

  it('draws CJK with DejaVu when no CJK font is installed, without failing', async () => {
    const pdf = await render(makeJob({ rows, reportType: 'detailed' }), { TXA_CJK_FONT: '' });
    expect(pdf.pages).toBe(1);
    expect(fontsOf(pdf.file)).not.toMatch(/IPAGothic|NotoSansCJK/);
    expect(pdf.text[0]).toContain('Wallet €');
    expect(pdf.text[0]).toContain('Café Ξ');
  });

  it('falls back to DejaVu when the CJK font file cannot be read', async () => {
    const broken = join(tmpdir(), 'txa-broken-font.ttf');
    writeFileSync(broken, 'not a font');
    const pdf = await render(makeJob({ rows, reportType: 'detailed' }), { TXA_CJK_FONT: broken });
    expect(pdf.text.join('\n')).toContain('Wallet €');
    expect(fontsOf(pdf.file)).toMatch(/DejaVuSans/);
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

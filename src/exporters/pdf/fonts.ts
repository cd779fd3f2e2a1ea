/**
 * Fonts of the PDF reports. pdfkit has no font fallback, so text is split into runs: CJK runs
 * use a CJK font when one is installed, everything else DejaVu Sans (Latin, Greek, Cyrillic, €, Ξ),
 * shipped with the `dejavu-fonts-ttf` package. Without a CJK font, CJK runs are drawn with
 * DejaVu (boxes on screen, still the right characters for copy and pdftotext), never an error.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface FontFiles {
  regular: string;
  bold: string;
  /** A TrueType/OpenType file (or collection with `cjkFamily`) covering CJK; null when none is installed. */
  cjk: string | null;
  cjkFamily?: string;
}

/**
 * CJK fonts the reports look for, in order: `TXA_CJK_FONT` (a .ttf/.otf path; set but empty
 * means "use none", as on a machine without CJK fonts), then Debian's `fonts-noto-cjk` (Han,
 * kana and Hangul; a collection, opened by its face name), then the much smaller
 * `fonts-ipafont-gothic` (Han and kana, no Hangul), which is what CI installs.
 */
const CJK_CANDIDATES: { path: string; family?: string }[] = [
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKjp-Regular' },
  { path: '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf' },
  { path: '/usr/share/fonts/truetype/fonts-japanese-gothic.ttf' },
];

export function resolveFonts(env: NodeJS.ProcessEnv = process.env): FontFiles {
  const pkg = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json');
  const ttf = join(dirname(pkg), 'ttf');
  const fonts: FontFiles = { regular: join(ttf, 'DejaVuSans.ttf'), bold: join(ttf, 'DejaVuSans-Bold.ttf'), cjk: null };
  const custom = env.TXA_CJK_FONT;
  if (custom === '') return fonts;
  const candidates = custom !== undefined ? [{ path: custom }, ...CJK_CANDIDATES] : CJK_CANDIDATES;
  const found = candidates.find((c) => existsSync(c.path));
  if (found) {
    fonts.cjk = found.path;
    if (found.family) fonts.cjkFamily = found.family;
  }
  return fonts;
}

// Han, kana, Hangul, CJK symbols and punctuation, full-width forms: none of them are in DejaVu Sans.
const CJK =
  /[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\ud840-\ud87f][\udc00-\udfff]/;
const CJK_RUNS = new RegExp(`((?:${CJK.source})+)`, 'g');

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/** Splits text into alternating runs, each marked CJK or not; spaces stay with the run they are in. */
export function scriptRuns(text: string): { text: string; cjk: boolean }[] {
  if (!hasCjk(text)) return [{ text, cjk: false }];
  return text
    .split(CJK_RUNS)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, cjk: hasCjk(part) }));
}

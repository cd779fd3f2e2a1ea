/**
 * The PDF canvas hands its output to the file as fast as it makes it: the report yields to the
 * event loop every 50 ms, and every such turn must write all that is ready. With the file
 * stream's default 16 KiB mark, each turn wrote about one page while an audit made several, and
 * the rest piled up in memory (70 MB at 50,000 audit records).
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Canvas } from '../../src/exporters/pdf/canvas.js';

describe('PDF output', () => {
  it('never piles up in memory while pages are made faster than one per turn', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'txa-pdf-buffer-')), 'out.pdf');
    const canvas = new Canvas(path, { title: 't', author: 'a', createdAt: new Date('2024-01-01T00:00:00Z') });
    let seed = 1;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let peak = 0;
    for (let page = 0; page < 300; page++) {
      canvas.addPage();
      // Shapes at random places: cheap to make, and their numbers compress poorly, so each
      // page is tens of KiB, like a dense audit page.
      for (let i = 0; i < 1500; i++) canvas.rect(random() * 800, random() * 560, random() * 40, random() * 20, '#c9ced6');
      peak = Math.max(peak, canvas.buffered);
      await canvas.drain();
    }
    const bytes = await canvas.finish();
    expect(statSync(path).size).toBe(bytes);
    expect(bytes).toBeGreaterThan(6 * 1024 * 1024);
    // One turn's output plus the file stream's 1 MiB mark; without the fix this reached the 8 MiB cap.
    expect(peak).toBeLessThan(3 * 1024 * 1024);
  });
});

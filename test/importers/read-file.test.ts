/** Reading import files: encodings by byte-order mark, and the bounds on binary content, lines and size. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readImportFile } from '../../src/importers/read-file.js';
import { txaErrorOf } from '../helpers/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'txa-read-'));
let n = 0;
function file(content: Buffer | string): string {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, content);
  return path;
}

const TEXT = 'date,tx_hash,amount,notes\n2024-03-01,0xab,1.5,"Café ☕ 日本"\n';
const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();

describe('encodings', () => {
  it.each([
    ['UTF-8', Buffer.from(TEXT)],
    ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT)])],
    ['UTF-16 LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, 'utf16le')])],
    ['UTF-16 BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(TEXT)])],
  ])('reads %s', (_name, bytes) => {
    expect(readImportFile(file(bytes))).toBe(TEXT);
  });

  it('decodes characters split across read chunks', () => {
    const long = 'é☕'.repeat(50_000) + '\n';
    expect(readImportFile(file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(long, 'utf16le')])))).toBe(long);
    expect(readImportFile(file(long))).toBe(long);
  });

  it.each([
    ['UTF-16 LE without a BOM', Buffer.from(TEXT, 'utf16le'), /UTF-16 \(little-endian\) text without a byte-order mark/],
    ['UTF-16 BE without a BOM', utf16be(TEXT), /UTF-16 \(big-endian\) text without a byte-order mark/],
    ['UTF-32 LE', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('a\0\0\0')]), /UTF-32 \(little-endian\)/],
    ['UTF-32 BE', Buffer.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x61]), /UTF-32 \(big-endian\)/],
    ['binary', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]), /binary \(a NUL byte at byte 5\)/],
  ])('refuses %s, naming what it is', (_name, bytes, message) => {
    const err = txaErrorOf(() => readImportFile(file(bytes)));
    expect([err.code, err.field]).toEqual(['IMPORT_FAILED', 'file']);
    expect(err.message).toMatch(message);
  });

  it('refuses a NUL byte far into a UTF-8 file, at its offset', () => {
    const head = `${'a,b\n'.repeat(100_000)}`;
    expect(txaErrorOf(() => readImportFile(file(`${head}\0rest`))).message).toMatch(`a NUL byte at byte ${head.length}`);
  });
});

describe('bounds', () => {
  it('refuses a line longer than the limit, naming it, also when it spans read chunks', () => {
    const err = txaErrorOf(() => readImportFile(file(`a,b\n1,2\n${'x'.repeat(200_000)}\n`), { maxBytes: 1e9, maxLineChars: 100_000 }));
    expect([err.code, err.field]).toEqual(['IMPORT_FAILED', 'file']);
    expect(err.message).toMatch(/^line 3 is longer than 0\.1 MiB/);
  });

  it('a line exactly at the limit is read', () => {
    const text = `a,b\n${'x'.repeat(100_000)}\n`;
    expect(readImportFile(file(text), { maxBytes: 1e9, maxLineChars: 100_000 })).toBe(text);
  });

  it('a JSON document may be one long line', () => {
    const json = JSON.stringify([{ notes: 'x'.repeat(300_000) }]);
    expect(readImportFile(file(json), { maxBytes: 1e9, maxLineChars: 100_000 })).toBe(json);
  });

  it('refuses a file over the size limit', () => {
    const err = txaErrorOf(() => readImportFile(file('a,b\n'.repeat(100_000)), { maxBytes: 200_000, maxLineChars: 1000 }));
    expect(err.message).toMatch(/larger than 0\.19 MiB, the import limit/);
    expect(err.hint).toMatch(/Split it/);
  });

  it('a missing file or a folder is IO_ERROR naming the file', () => {
    expect([txaErrorOf(() => readImportFile(join(dir, 'nope.csv'))).code, txaErrorOf(() => readImportFile(dir)).message]).toEqual([
      'IO_ERROR',
      `cannot read ${dir}: it is a directory`,
    ]);
  });
});

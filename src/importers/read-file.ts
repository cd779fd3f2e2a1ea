/**
 * Reading an import file into text, bounded: it is read in chunks, so a device or pipe that never
 * ends (`/dev/zero`), binary content, a line no CSV has, or a file over the size limit is refused
 * after reading at most that much, instead of exhausting memory. The encoding comes from the
 * byte-order mark (UTF-8, UTF-16 LE/BE); UTF-16 without one, UTF-32 and binary files are refused
 * by name. Limits: docs/import.md.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { TxaError, type ErrorCode } from '../core/errors.js';
import { fileErrorText } from '../core/errno.js';

/** Largest file read (256 MiB): a few hundred thousand rows, far below V8's largest string. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;
/** Longest line of a CSV or other line-based file (1 MiB); a JSON document may be one line. */
export const MAX_LINE_CHARS = 1024 * 1024;
const CHUNK_BYTES = 1 << 16;
/** Bytes looked at to tell the encoding. */
const HEAD_BYTES = 4096;

/**
 * How a refusal reads: an import's (docs/import.md) by default; a rules file is read the same
 * way but refused as INVALID_RULES (docs/rules.md, Bad files).
 */
export interface Refusal {
  /** The code of a file that is not what it should be, and of one that cannot be opened or read. */
  code: ErrorCode;
  unreadable: ErrorCode;
  /** What the file should hold: "CSV or JSON". */
  format: string;
  /** The name of the size limit, and what to do about a file over it. */
  limit: string;
  tooLargeHint: string;
}

const IMPORT_REFUSAL: Refusal = {
  code: 'IMPORT_FAILED',
  // A file that cannot be read is IO_ERROR for every command (docs/cli.md "Files").
  unreadable: 'IO_ERROR',
  format: 'CSV or JSON',
  limit: 'the import limit',
  tooLargeHint: 'Split it into smaller files; importing them one after another gives the same ledger.',
};

function refuse(r: Refusal, message: string, hint?: string): never {
  throw new TxaError(r.code, message, { field: 'file', hint });
}

const UTF8_HINT = 'Save it as UTF-8 (or UTF-16 with a byte-order mark) and try again.';

/** The encoding a file's first bytes show, or a refusal naming what the file is. */
function encodingOf(head: Buffer, r: Refusal): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0)
    refuse(r, 'the file is UTF-32 (little-endian), which txa does not read', UTF8_HINT);
  if (head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff) refuse(r, 'the file is UTF-32 (big-endian), which txa does not read', UTF8_HINT);
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const nul = head.indexOf(0);
  if (nul < 0) return 'utf-8';
  // ASCII text in UTF-16 has a NUL in every other byte: odd ones little-endian, even ones big-endian.
  let even = 0;
  let odd = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) even++;
    if (head[i + 1] === 0) odd++;
  }
  const pairs = Math.floor(head.length / 2);
  if (odd > pairs / 2 && even === 0)
    refuse(r, 'the file looks like UTF-16 (little-endian) text without a byte-order mark, which txa cannot tell apart from binary', UTF8_HINT);
  if (even > pairs / 2 && odd === 0)
    refuse(r, 'the file looks like UTF-16 (big-endian) text without a byte-order mark, which txa cannot tell apart from binary', UTF8_HINT);
  return binary(nul, r);
}

function binary(offset: number, r: Refusal): never {
  refuse(r, `the file is binary (a NUL byte at byte ${offset}), not ${r.format} text`);
}

export interface ReadLimits {
  maxBytes: number;
  maxLineChars: number;
  /** An import's when not given. */
  refusal?: Refusal;
}

const LIMITS: ReadLimits = { maxBytes: MAX_IMPORT_BYTES, maxLineChars: MAX_LINE_CHARS };

const mib = (n: number) => `${+(n / (1024 * 1024)).toFixed(2)} MiB`;

/** Tracks the length of the current line across decoded pieces, for the line limit. */
class LineLimit {
  private line = 1;
  private run = 0;

  constructor(
    private readonly max: number,
    private readonly refusal: Refusal,
  ) {}

  add(piece: string): void {
    let from = 0;
    for (let nl = piece.indexOf('\n'); nl >= 0; nl = piece.indexOf('\n', from)) {
      this.check(this.run + nl - from);
      this.line++;
      this.run = 0;
      from = nl + 1;
    }
    this.run += piece.length - from;
    this.check(this.run);
  }

  private check(length: number): void {
    if (length > this.max) {
      refuse(this.refusal, `line ${this.line} is longer than ${mib(this.max)}, longer than any CSV row; it is not a CSV file, or it is damaged`);
    }
  }
}

/**
 * The text of an import file; the refusal's `unreadable` code (`IO_ERROR`), field
 * `file`, when it cannot be opened or read.
 * `onBytes` sees every byte read, in order (the import hashes the file on the way).
 */
export function readImportFile(path: string, limits: ReadLimits = LIMITS, onBytes?: (bytes: Buffer) => void): string {
  return [...readImportPieces(path, limits, onBytes)].join('');
}

/**
 * The text of an import file in pieces of about 64 KiB, as read, with the same checks and
 * refusals as readImportFile: an exchange file is parsed as it is read, so its text is never
 * whole in memory (docs/import.md "Large files"). The file is closed when the pieces end or the
 * reader stops early.
 */
export function* readImportPieces(path: string, limits: ReadLimits = LIMITS, onBytes?: (bytes: Buffer) => void): Generator<string> {
  const r = limits.refusal ?? IMPORT_REFUSAL;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw cannotRead(path, err, r);
  }
  try {
    yield* readBounded(fd, path, limits, r, onBytes);
  } finally {
    closeSync(fd);
  }
}

function cannotRead(path: string, err: unknown, r: Refusal): TxaError {
  return new TxaError(r.unreadable, `cannot read ${path}: ${fileErrorText(err)}`, { field: 'file', cause: err });
}

function* chunks(fd: number, path: string, r: Refusal): Generator<Buffer> {
  for (;;) {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK_BYTES, null);
    } catch (err) {
      throw cannotRead(path, err, r);
    }
    if (n === 0) return;
    yield buf.subarray(0, n);
  }
}

function* readBounded(fd: number, path: string, limits: ReadLimits, r: Refusal, onBytes?: (bytes: Buffer) => void): Generator<string> {
  const source = chunks(fd, path, r);
  // The head decides the encoding; a pipe may hand it over in several short reads.
  const head: Buffer[] = [];
  let headSize = 0;
  let next = source.next();
  while (!next.done && headSize < HEAD_BYTES) {
    head.push(next.value);
    headSize += next.value.length;
    next = source.next();
  }
  const first = Buffer.concat(head);
  const encoding = encodingOf(first, r);
  const decoder = new TextDecoder(encoding);
  const lines = looksLikeJson(first, encoding) ? undefined : new LineLimit(limits.maxLineChars, r);
  let total = 0;
  const decode = (bytes: Buffer): string => {
    onBytes?.(bytes);
    total += bytes.length;
    if (total > limits.maxBytes) {
      refuse(r, `the file is larger than ${mib(limits.maxBytes)}, ${r.limit}`, r.tooLargeHint);
    }
    if (encoding === 'utf-8') {
      const nul = bytes.indexOf(0);
      if (nul >= 0) binary(total - bytes.length + nul, r);
    }
    const piece = decoder.decode(bytes, { stream: true });
    lines?.add(piece);
    return piece;
  };
  yield decode(first);
  for (; !next.done; next = source.next()) yield decode(next.value);
  const rest = decoder.decode();
  lines?.add(rest);
  yield rest;
}

/** JSON (a document or NDJSON) starts with `[` or `{`; a whole array may be on one line. */
function looksLikeJson(head: Buffer, encoding: string): boolean {
  const text = new TextDecoder(encoding).decode(head.subarray(0, 1024)).trimStart();
  return text.startsWith('[') || text.startsWith('{');
}

/**
 * A file txa writes where the user said (`--out`, the default `./<export_id>.<ext>`), for the
 * local and the remote backend alike. Only a regular file is ever written or replaced: a FIFO,
 * socket, device or directory at the path (or behind a symbolic link there) is refused before
 * anything is written. The bytes go to a temp file beside the target, are synced, and renamed
 * into place, so a failure (disk full, a dropped connection) leaves no partial file behind.
 */
import {
  closeSync,
  constants,
  copyFileSync,
  createWriteStream,
  fsyncSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { TxaError } from '../core/errors.js';

/** Errors of the path the user chose (fix the path); any other failure while writing is an I/O error. */
const PATH_ERRORS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG', 'ELOOP']);

function kindOf(st: Stats): string | undefined {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isDirectory()) return 'a directory';
  return undefined;
}

function usage(message: string, hint?: string): TxaError {
  return new TxaError('USAGE_ERROR', message, { field: 'out', hint });
}

/**
 * The regular file `path` names, resolved: itself, or the target of a symbolic link there. A path
 * that names anything else, or whose directory does not exist, is a usage error (field `out`).
 */
export function outTarget(path: string): string {
  const abs = resolve(path);
  const link = lstatSync(abs, { throwIfNoEntry: false });
  let target = abs;
  if (link?.isSymbolicLink()) {
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st) throw usage(`--out ${path} is a symbolic link to a missing file`, 'Remove the link, or pass another --out PATH.');
    const kind = kindOf(st);
    if (kind) throw usage(`--out ${path} is a symbolic link to ${kind}; txa writes only regular files`);
    target = realpathSync(abs);
  } else if (link) {
    const kind = kindOf(link);
    if (kind === 'a directory') throw usage(`--out ${path} is a directory; name the file to write`, `For example: --out ${join(path, 'export.csv')}`);
    if (kind) throw usage(`--out ${path} is ${kind}; txa writes only regular files`);
  }
  const dir = dirname(target);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw usage(`--out ${path}: directory ${dir} does not exist`, 'Create the directory first, or pass another --out PATH.');
  }
  return target;
}

/** The failure to write `path` as the error a user sees: a path to fix (exit 2) or an I/O error (exit 1). */
function writeError(path: string, err: unknown): TxaError {
  if (err instanceof TxaError) return err;
  const { code, message } = err as NodeJS.ErrnoException;
  // Node's `ENOSPC: no space left on device, write` without the temp file's path.
  const reason = /^E[A-Z]+: ([^,]+)/.exec(message)?.[1];
  const what = code ? (reason ? `${reason} (${code})` : code) : message;
  if (code && PATH_ERRORS.has(code)) return new TxaError('USAGE_ERROR', `cannot write ${path}: ${what}`, { field: 'out', cause: err });
  return new TxaError('IO_ERROR', `cannot write ${path}: ${what}; nothing was written`, { field: 'out', cause: err });
}

/**
 * One write of the file at `path`: the bytes go to `tmp` (created exclusively, beside the target),
 * which is synced and renamed into place, or removed after a failure.
 */
export class OutFile {
  private readonly target: string;
  private readonly tmp: string;

  constructor(private readonly path: string) {
    this.target = outTarget(path);
    this.tmp = join(dirname(this.target), `.${basename(this.target)}.${randomBytes(6).toString('hex')}.part`);
  }

  /** A copy of the file at `source`. */
  copy(source: string): { path: string; bytes: number } {
    try {
      copyFileSync(source, this.tmp, constants.COPYFILE_EXCL);
    } catch (err) {
      this.discard();
      throw writeError(this.path, err);
    }
    return this.commit();
  }

  /** The bytes of `source`; a failure to read them is `readFailed(err)`, to write them an I/O (or path) error. */
  async stream(source: AsyncIterable<Uint8Array>, readFailed: (err: unknown) => TxaError): Promise<{ path: string; bytes: number }> {
    const file = createWriteStream(this.tmp, { flags: 'wx' });
    const read = async function* () {
      try {
        yield* source;
      } catch (err) {
        throw readFailed(err);
      }
    };
    try {
      await pipeline(read(), file);
    } catch (err) {
      // The temp file may still be opening: remove it only once the stream is done with it.
      if (!file.closed) await new Promise<void>((r) => file.once('close', () => r()));
      this.discard();
      throw writeError(this.path, err);
    }
    return this.commit();
  }

  /** Syncs the temp file and renames it over the target, whose kind is checked again just before. */
  private commit(): { path: string; bytes: number } {
    try {
      const fd = openSync(this.tmp, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      outTarget(this.path); // a device put there meanwhile is still refused, not replaced
      renameSync(this.tmp, this.target);
    } catch (err) {
      this.discard();
      throw writeError(this.path, err);
    }
    return { path: this.target, bytes: statSync(this.target).size };
  }

  private discard(): void {
    rmSync(this.tmp, { force: true });
  }
}

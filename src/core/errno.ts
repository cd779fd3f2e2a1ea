import { TxaError } from './errors.js';

/**
 * A file error in words (docs/cli.md, "Error wording"): `cannot read x.csv: no such file`, not the
 * raw errno (`ENOENT`) a user has to look up. Codes not listed keep Node's message.
 */
const WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EMFILE: 'too many open files',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

export function fileErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code && Object.hasOwn(WORDS, code)) return WORDS[code]!;
  return code ?? (err instanceof Error ? err.message : String(err));
}

/**
 * A file the user named (an argument or a flag's value) that cannot be read: `IO_ERROR`, exit 1,
 * `field` the argument or flag, `cannot read PATH: no such file`. One rule for every command that
 * reads a file (docs/cli.md "Files"): a path is free-form, so a missing one is not a usage error
 * but the machine's refusal, as a full disk is for `--out`.
 */
export function unreadableFile(path: string, err: unknown, field: string): TxaError {
  return new TxaError('IO_ERROR', `cannot read ${path}: ${fileErrorText(err)}`, { field, cause: err });
}

/** `a` or `an` before a word, by its first letter's sound ("an ethereum wallet", "a bitcoin wallet"). */
export function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

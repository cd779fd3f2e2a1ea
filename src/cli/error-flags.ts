/**
 * An error of the engine or the API names the request's field (`end_date`, `options.date_format`);
 * the user typed a flag (`--end-date`, `--date-format`). In human output the field and its
 * mentions in the message become the flag, read from the command's own options (docs/cli.md
 * "Error wording"); `--json` keeps the API's `field`. One map per command, from commander, so a
 * new flag is covered when it is added.
 */
import type { Command } from 'commander';
import { TxaError } from '../core/errors.js';

/** Sections of a request body that flags fill one key each: `options.currency` is `--currency`. */
const FLAG_SECTIONS = ['options.', 'filters.', 'delivery.'];

/** The command's flags by the field each sets: commander's attribute name in snake case (`endDate` → `end_date` → `--end-date`). */
export function flagsByField(cmd: Command): Map<string, string> {
  const flags = new Map<string, string>();
  for (const o of cmd.options) {
    if (!o.long) continue;
    const field = o.attributeName().replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    flags.set(field, o.long);
  }
  return flags;
}

/** The flag a field stands for, if one of the command's flags sets it. */
function flagOf(field: string, flags: Map<string, string>): string | undefined {
  const key = FLAG_SECTIONS.find((s) => field.startsWith(s)) ? field.slice(field.indexOf('.') + 1) : field;
  return flags.get(key);
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `err` in the words of the command line: the field as its flag without dashes (as the form errors
 * name it: `end-date`), and in the message the field and every other snake_case field the command
 * has a flag for as the flag (`end_date must not be before start_date` → `--end-date must not be
 * before --start-date`). A one-word field (`name`) is replaced only where the message starts with
 * it, since the word may be the message's own there.
 */
export function inFlagWords(err: TxaError, flags: Map<string, string>): TxaError {
  const flag = err.field === undefined ? undefined : flagOf(err.field, flags);
  let message = err.message;
  const replace = (word: string, by: string) => {
    message = message.replace(new RegExp(`(?<![\\w.'"-])${literal(word)}(?![\\w'"-])`, 'g'), by);
  };
  if (err.field !== undefined && flag !== undefined) {
    if (err.field.includes('_') || err.field.includes('.')) replace(err.field, flag);
    else if (message.startsWith(`${err.field} `)) message = `${flag}${message.slice(err.field.length)}`;
  }
  for (const [field, other] of flags) if (field.includes('_')) replace(field, other);
  if (flag === undefined && message === err.message) return err;
  return new TxaError(err.code, message, { field: flag === undefined ? err.field : flag.slice(2), extra: err.extra, hint: err.hint });
}

/**
 * Markdown text for the generated references (docs/reference/): prose wrapped at 80 columns,
 * table cells and plain text escaped outside `code spans`.
 */

export const WIDTH = 80;

/** Escapes what Markdown would take for markup (`<tag>`, `*`, a table's `|`), leaving code spans alone. */
export function escapeMd(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\<*|]/g, '\\$&')))
    .join('');
}

/** `text` in lines of at most `width` columns (a longer word stays whole), the first after `first`, the rest after `rest`. */
export function wrap(text: string, first = '', rest = first, width = WIDTH): string {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as `-`. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A code span holding `text`, with enough backticks around it. */
export function code(text: string): string {
  const ticks = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return ticks.length > 1 || text.startsWith(' ') ? `${ticks} ${text} ${ticks}` : `\`${text}\``;
}

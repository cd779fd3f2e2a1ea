/**
 * The two journal syntaxes: hledger's (`--format ledger`, a `.journal` file) and beancount's.
 * Names are valid in both (names.ts); these only spell directives, metadata and amounts. Text
 * from the ledger (labels, notes) goes into comments (hledger) or quoted strings (beancount),
 * on one line each, so it can never become a directive.
 */
import type { Entry, Posting } from './entries.js';

export interface Directive {
  /** Metadata: the label, address, original symbol… as they are in the ledger. */
  meta: [string, string][];
}

export interface Syntax {
  header(title: string, currency: string): string;
  commodity(day: string, name: string, d: Directive): string;
  open(day: string, account: string, d: Directive): string;
  entry(e: Entry): string;
  price(day: string, commodity: string, price: string, currency: string): string;
}

/** One line of text: control characters (line breaks included) become spaces. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();

// ---- hledger ----

/** hledger quotes a commodity symbol holding anything but letters. */
const hSymbol = (name: string) => (/^[A-Za-z]+$/.test(name) ? name : `"${name}"`);
/** A comment's text: `;` starts a comment already; a tag value ends at a comma, which stays (the text is whole). */
const hComment = (meta: [string, string][], indent: string) => meta.map(([k, v]) => `${indent}; ${k}: ${oneLine(v)}\n`).join('');
const hAmount = (p: Posting) => `${p.quantity} ${hSymbol(p.commodity)}${p.total ? ` @@ ${p.total.value} ${hSymbol(p.total.currency)}` : ''}`;

export const hledger: Syntax = {
  // The currency shows cents: without the directive, the unit prices' 12 places would set its display.
  header: (title, currency) => `; ${oneLine(title)}\n; Read it with: hledger -f FILE bal\n\ndecimal-mark .\ncommodity 1000.00 ${hSymbol(currency)}\n\n`,
  commodity: (_day, name, d) => `commodity ${hSymbol(name)}\n${hComment(d.meta, '    ')}`,
  open: (_day, account, d) => `account ${account}\n${hComment(d.meta, '    ')}`,
  entry(e) {
    // The description ends at a `;` in hledger; tags are `name:` in a comment.
    const head = `${e.date} * ${oneLine(e.narration).replace(/;/g, ',')}\n`;
    const tags = e.tags.map((t) => `    ; ${t}:\n`).join('');
    const postings = e.postings.map((p) => `    ${p.account}  ${hAmount(p)}\n`).join('');
    return `${head}${hComment(e.meta, '    ')}${tags}${postings}\n`;
  },
  price: (day, commodity, price, currency) => `P ${day} ${hSymbol(commodity)} ${price} ${hSymbol(currency)}\n`,
};

// ---- beancount ----

const bString = (text: string) => `"${oneLine(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
/** Metadata keys are `[a-z][a-zA-Z0-9_-]*`. */
const bMeta = (meta: [string, string][], indent: string) => meta.map(([k, v]) => `${indent}${k}: ${bString(v)}\n`).join('');

export const beancount: Syntax = {
  header: (title, currency) =>
    `; ${oneLine(title)}\n; Read it with: bean-check FILE\n\noption "title" ${bString(title)}\noption "operating_currency" "${currency}"\n\n`,
  commodity: (day, name, d) => `${day} commodity ${name}\n${bMeta(d.meta, '  ')}`,
  open: (day, account, d) => `${day} open ${account}\n${bMeta(d.meta, '  ')}`,
  entry(e) {
    const tags = e.tags.map((t) => ` #${t}`).join('');
    const postings = e.postings
      .map((p) => `  ${p.account}  ${p.quantity} ${p.commodity}${p.total ? ` @@ ${p.total.value} ${p.total.currency}` : ''}\n`)
      .join('');
    return `${e.date} * ${bString(e.narration)}${tags}\n${bMeta(e.meta, '  ')}${postings}\n`;
  },
  price: (day, commodity, price, currency) => `${day} price ${commodity} ${price} ${currency}\n`,
};

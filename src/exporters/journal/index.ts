/**
 * Journals for plain-text accounting (docs/journals.md): `ledger` (hledger) and
 * `beancount`. The header declares every commodity and account of the workspace (opened on its
 * first day, with the original label, symbol and address as metadata); then the rows stream in
 * time order, one entry each (entries.ts), with each day's prices after its entries, so memory
 * stays flat.
 */
import { OFF_THREAD_ROWS, writeChunked } from '../chunked-file.js';
import type { ExportWriter } from '../types.js';
import { EntryBuilder, unitPrice, type Entry } from './entries.js';
import { JournalNames } from './names.js';
import { fitBeancount, piecesFooter, type Fitted } from './precision.js';
import { beancount, hledger } from './syntax.js';

const PROGRESS_EVERY = 1000;

export const writeJournal: ExportWriter = async (job, destPath) => {
  const syntax = job.format === 'beancount' ? beancount : hledger;
  // Beancount holds 28 significant digits: wider amounts are written in pieces (docs/journals.md, "Beyond 28 digits").
  const fit = job.format === 'beancount' ? fitBeancount : (entry: Entry): Fitted => ({ entry, note: null });
  let inPieces = 0;
  const currency = job.options.currency;
  const catalog = job.catalog();
  const names = new JournalNames(catalog, job.tags, currency);
  const builder = new EntryBuilder(names, currency, (id) => job.selected(id));
  let done = 0;
  const spell = ({ entry, note }: Fitted) => {
    if (note === null) return syntax.entry(entry);
    inPieces++;
    return `; ${note}\n${syntax.entry(entry)}`;
  };
  const written = await writeChunked(
    destPath,
    async (file) => {
      file.add(syntax.header(`txa journal of ${job.workspace.name} (${job.workspace.id}), export ${job.exportId}, ${job.createdAt}`, currency));
      const opened = catalog.firstDay;
      if (opened !== null) {
        const seen = new Set<string>();
        for (const h of catalog.holdings) {
          const name = names.commodity(h.symbol, h.address);
          if (seen.has(name)) continue;
          seen.add(name);
          file.add(syntax.commodity(opened, name, { meta: [['symbol', h.symbol], ...(h.address ? [['address', h.address] as [string, string]] : [])] }));
        }
        const wallets = new Map(catalog.wallets.map((w) => [w.id, w]));
        for (const a of names.accounts()) {
          const w = a.walletId === undefined ? undefined : wallets.get(a.walletId);
          const place: [string, string][] =
            w?.kind === 'exchange'
              ? [['exchange', w.exchange ?? 'other']]
              : w
                ? [
                    ['chain', w.chain],
                    ['address', w.address],
                  ]
                : [];
          const meta: [string, string][] = w ? [['wallet_label', w.label], ['wallet_id', w.id], ...place] : [];
          file.add(syntax.open(opened, a.account, { meta }));
        }
        file.add('\n');
      }
      // Each day's last price per commodity, written after the day's entries.
      let day: string | null = null;
      const prices = new Map<string, string>();
      const flushPrices = () => {
        for (const [commodity, price] of prices) file.add(syntax.price(day!, commodity, price, currency));
        if (prices.size > 0) file.add('\n');
        prices.clear();
      };
      for (const tx of job.rows()) {
        const today = tx.timestamp.slice(0, 10);
        if (today !== day) {
          flushPrices();
          day = today;
        }
        const entry = builder.entry(tx);
        const price = unitPrice(tx);
        if (price !== null) prices.set(names.commodity(tx.token.symbol, tx.token.address), price);
        if (entry && file.add(spell(fit(entry)))) await file.flush();
        if (++done % PROGRESS_EVERY === 0) job.onProgress(done);
      }
      flushPrices();
      if (inPieces > 0) file.add(piecesFooter(inPieces));
    },
    { offThread: job.transactionCount >= OFF_THREAD_ROWS },
  );
  job.onProgress(done);
  return written;
};

/**
 * A replay of the European Central Bank's reference-rate files on 127.0.0.1, in the files' real
 * formats (docs/prices.md "Exchange rates"):
 * - `GET /eurofxref-hist.zip`: a zip holding `eurofxref-hist.csv`, `Date,USD,JPY,…,` with a
 *   trailing comma on every line, newest day first, `N/A` where a currency had no quote;
 * - `GET /eurofxref-hist-90d.xml`: the `gesmes:Envelope` with `<Cube time='…'>` days newest first,
 *   each holding `<Cube currency='USD' rate='1.0811'/>`, for the days from `recentFrom`.
 * Neither holds a day from TXA_NOW's on. Every call is recorded; queued faults answer the next calls instead (a status and body, an
 * endless body, or a zip of a given CSV text).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';

/** The ECB's column order (a subset), so the files look as its own do. */
const ORDER = ['USD', 'JPY', 'BGN', 'CZK', 'DKK', 'GBP', 'HUF', 'ISK', 'PLN', 'SEK', 'CHF', 'NOK', 'AUD', 'CAD', 'NZD'];

export interface FxFault {
  status?: number;
  body?: string;
  contentType?: string;
  endless?: true;
  /** Answer 200 with a zip holding this CSV text. */
  zipCsv?: string;
}

export interface FxReplay {
  url: string;
  /** Quotes (units per euro, as written) per publication day. */
  days: Record<string, Record<string, string>>;
  /** The 90-day file's first day. */
  recentFrom: string;
  calls: string[];
  faults: FxFault[];
  close(): Promise<void>;
}

const newestFirst = (days: Record<string, unknown>) => Object.keys(days).sort().reverse();

export function histCsv(days: Record<string, Record<string, string>>): string {
  const present = new Set(Object.values(days).flatMap((q) => Object.keys(q)));
  const columns = ORDER.filter((c) => present.has(c));
  const lines = [`Date,${columns.join(',')},`];
  for (const day of newestFirst(days)) lines.push(`${day},${columns.map((c) => days[day]![c] ?? 'N/A').join(',')},`);
  return `${lines.join('\n')}\n`;
}

export function zipOf(csv: string): Buffer {
  return Buffer.from(zipSync({ 'eurofxref-hist.csv': new TextEncoder().encode(csv) }));
}

export function envelopeXml(days: Record<string, Record<string, string>>): string {
  const cubes = newestFirst(days).map((day) => {
    const quotes = ORDER.filter((c) => days[day]![c] !== undefined).map((c) => `\t\t\t<Cube currency='${c}' rate='${days[day]![c]}'/>`);
    return `\t\t<Cube time='${day}'>\n${quotes.join('\n')}\n\t\t</Cube>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
    '\t<gesmes:subject>Reference rates</gesmes:subject>',
    '\t<gesmes:Sender>',
    '\t\t<gesmes:name>European Central Bank</gesmes:name>',
    '\t</gesmes:Sender>',
    '\t<Cube>',
    ...cubes,
    '\t</Cube>',
    '</gesmes:Envelope>',
    '',
  ].join('\n');
}

function send(res: ServerResponse, status: number, body: string | Buffer, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

export async function fxReplay(days: Record<string, Record<string, string>>, recentFrom: string): Promise<FxReplay> {
  const server: FxReplay = { url: '', days, recentFrom, calls: [], faults: [], close: async () => undefined };
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    server.calls.push(path);
    const fault = server.faults.shift();
    if (fault?.endless) return trickle(res);
    if (fault?.zipCsv !== undefined) return send(res, 200, zipOf(fault.zipCsv), 'application/zip');
    if (fault) return send(res, fault.status ?? 200, fault.body ?? '', fault.contentType ?? 'text/html');
    // As the ECB's own files: no day after the one before TXA_NOW's (its day is published at 16:00 CET).
    const today = (process.env.TXA_NOW ?? '9999-12-31').slice(0, 10);
    const published = Object.fromEntries(Object.entries(server.days).filter(([d]) => d < today));
    if (path === '/eurofxref-hist.zip') return send(res, 200, zipOf(histCsv(published)), 'application/zip');
    if (path === '/eurofxref-hist-90d.xml') {
      const recent = Object.fromEntries(Object.entries(published).filter(([d]) => d >= server.recentFrom));
      return send(res, 200, envelopeXml(recent), 'text/xml');
    }
    send(res, 404, '<html><body>Not found</body></html>', 'text/html');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  server.close = () => new Promise((resolve) => http.close(() => resolve()));
  return server;
}

/** An answer that never ends, a byte every 50 ms: the call's deadline stops it, never the size cap (a flood would reach 64 MiB first on a fast machine). */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/zip' });
  const timer = setInterval(() => res.write('P'), 50);
  res.on('close', () => clearInterval(timer));
}

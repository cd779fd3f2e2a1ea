/** The importers by format name, and detection of a file's format from its content. */
import { TxaError } from '../core/errors.js';
import { IMPORT_FORMATS, type Importer } from './types.js';
import { Columns, readHeader } from './csv.js';
import { etherscanImporter } from './etherscan.js';
import { koinlyImporter } from './koinly.js';
import { coinbaseImporter } from './coinbase.js';
import { krakenImporter } from './kraken.js';
import { binanceImporter } from './binance.js';
import { geminiImporter } from './gemini.js';
import { exchangeCsvImporter } from './exchange-csv.js';
import { rotkiImporter } from './rotki.js';
import { txaCsvImporter } from './txa-csv.js';
import { jsonImporter, ndjsonImporter } from './txa-json.js';

/** In detection order: JSON shapes first, then CSV layouts from the most specific header. */
const IMPORTERS: Importer[] = [
  jsonImporter,
  ndjsonImporter,
  txaCsvImporter,
  exchangeCsvImporter,
  coinbaseImporter,
  krakenImporter,
  binanceImporter,
  geminiImporter,
  koinlyImporter,
  rotkiImporter,
  etherscanImporter,
];

/** What each format is, for a message that names the one a file looks like. */
export const FORMAT_NAMES: Record<string, string> = {
  json: 'a txa JSON file',
  ndjson: 'an NDJSON file (one JSON transaction per line)',
  csv: 'a txa CSV file',
  etherscan: 'an explorer CSV export (Etherscan, BscScan, Arbiscan, Polygonscan)',
  koinly: 'a Koinly file',
  rotki: 'a rotki events file',
  coinbase: 'a Coinbase transaction history',
  kraken: 'a Kraken ledgers export',
  binance: 'a Binance transaction history',
  gemini: 'a Gemini transaction history',
  'exchange-csv': "txa's exchange CSV",
};

/** The importer a file's content looks like; it needs only the file's first line or record. */
function detect(text: string): Importer | undefined {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const header = trimmed.startsWith('{') || trimmed.startsWith('[') ? undefined : readHeader(text);
  return IMPORTERS.find((i) => i.detect({ header, text }));
}

/** The format name of `detect`, for the CLI's hint when a file fails as the format it was told. */
export function detectedFormat(text: string): string | undefined {
  return detect(text)?.format;
}

export function importerFor(format: string, text: string): Importer {
  if (format !== 'auto') {
    const found = IMPORTERS.find((i) => i.format === format);
    if (!found) throw new TxaError('USAGE_ERROR', `--format must be one of ${IMPORT_FORMATS.join(', ')}, got '${format}'`, { field: 'format' });
    return found;
  }
  const found = detect(text);
  if (!found) {
    const hint = `Pass --format with one of ${IMPORT_FORMATS.filter((f) => f !== 'auto').join(', ')} (see docs/import.md).`;
    const near = nearestLayout(text);
    if (near) {
      const s = near.missing.length === 1 ? '' : 's';
      throw new TxaError(
        'IMPORT_FAILED',
        `the header looks like ${FORMAT_NAMES[near.format]} but lacks column${s} ${near.missing.map((c) => `'${c}'`).join(', ')}; was the layout changed?`,
        {
          field: near.missing.join(','),
          extra: { looks_like: near.format, missing_columns: near.missing },
          hint,
        },
      );
    }
    throw new TxaError('IMPORT_FAILED', 'cannot tell the format of the file from its content', { field: 'format', hint });
  }
  return found;
}

/** The columns each exchange layout is recognised by (its importer's `detect`), to name the layout a changed header resembles. */
const LAYOUT_COLUMNS: Record<string, string[]> = {
  coinbase: ['Timestamp', 'Transaction Type', 'Asset', 'Quantity Transacted'],
  kraken: ['txid', 'refid', 'time', 'type', 'asset', 'amount', 'fee', 'balance'],
  binance: ['UTC_Time', 'Operation', 'Coin', 'Change'],
  gemini: ['Date', 'Time (UTC)', 'Type', 'Symbol', 'Specification'],
  'exchange-csv': ['date', 'type', 'asset', 'quantity', 'fiat_amount', 'trade_id'],
};

/** The exchange layout holding at least half of its columns in one of the file's first lines (a preamble may come first), and what it lacks. */
function nearestLayout(text: string): { format: string; missing: string[] } | undefined {
  let best: { format: string; missing: string[]; share: number } | undefined;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/, 12)) {
    const cols = new Columns(line.split(',').map((c) => c.trim().replace(/^"|"$/g, '')));
    for (const [format, want] of Object.entries(LAYOUT_COLUMNS)) {
      const missing = want.filter((c) => cols.find(c) < 0);
      const share = 1 - missing.length / want.length;
      if (share >= 0.5 && missing.length > 0 && (!best || share > best.share)) best = { format, missing, share };
    }
  }
  return best && { format: best.format, missing: best.missing };
}

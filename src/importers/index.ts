/** The importers by format name, and detection of a file's format from its content. */
import { TxaError } from '../core/errors.js';
import { IMPORT_FORMATS, type Importer } from './types.js';
import { readHeader } from './csv.js';
import { etherscanImporter } from './etherscan.js';
import { koinlyImporter } from './koinly.js';
import { rotkiImporter } from './rotki.js';
import { txaCsvImporter } from './txa-csv.js';
import { jsonImporter, ndjsonImporter } from './txa-json.js';

/** In detection order: JSON shapes first, then CSV layouts from the most specific header. */
const IMPORTERS: Importer[] = [jsonImporter, ndjsonImporter, txaCsvImporter, koinlyImporter, rotkiImporter, etherscanImporter];

export function importerFor(format: string, text: string): Importer {
  if (format !== 'auto') {
    const found = IMPORTERS.find((i) => i.format === format);
    if (!found) throw new TxaError('USAGE_ERROR', `--format must be one of ${IMPORT_FORMATS.join(', ')}, got '${format}'`, { field: 'format' });
    return found;
  }
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const header = trimmed.startsWith('{') || trimmed.startsWith('[') ? undefined : readHeader(text);
  const found = IMPORTERS.find((i) => i.detect({ header, text }));
  if (!found) {
    throw new TxaError('IMPORT_FAILED', 'cannot tell the format of the file from its content', {
      field: 'format',
      hint: `Pass --format with one of ${IMPORT_FORMATS.filter((f) => f !== 'auto').join(', ')} (see docs/import.md).`,
    });
  }
  return found;
}

/**
 * The real explorer and tax-tool files of ../shared/samples/explorer-csv exist only in the team's
 * checkout, beside the project. Their tests run in addition to the fixture tests when the folder is
 * there; in a bare clone they are skipped, and the run says so.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe } from 'vitest';

const SAMPLES = resolve(import.meta.dirname, '../../../shared/samples/explorer-csv');
const PRESENT = existsSync(SAMPLES);

export const sample = (name: string) => join(SAMPLES, name);

/** describe() for tests of the real files; skipped, with the reason in its title and on stderr, without them. */
export function describeSamples(title: string, body: () => void): void {
  if (PRESENT) describe(`real samples: ${title}`, body);
  else describe.skip(`real samples: skipped, ../shared/samples not found: ${title}`, body);
}

if (!PRESENT) console.warn(`real samples: skipped, ${SAMPLES} not found; fixtures/import covers their quirks`);

/**
 * `npm run reference`: writes docs/reference/cli.md and docs/reference/api.md, generated from
 * the command tree and the OpenAPI document. test/cli/reference.test.ts compares the files with
 * `referenceFiles()` and fails when they are stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram } from './program.js';
import { cliReference } from './reference.js';
import { apiReference } from '../server/reference.js';
import { openApiDocument } from '../server/openapi.js';

/** The generated files, by path from the repository's root. */
export async function referenceFiles(): Promise<Record<string, string>> {
  // `--help` registers every noun, as the help and `txa completion` see the tree.
  const program = await buildProgram(['--help']);
  return {
    'docs/reference/cli.md': cliReference(program),
    'docs/reference/api.md': apiReference(openApiDocument()),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  for (const [path, text] of Object.entries(await referenceFiles())) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    process.stdout.write(`wrote ${path}\n`);
  }
}

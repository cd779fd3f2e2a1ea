/**
 * docs/reference/cli.md and docs/reference/api.md are generated (`npm run reference`) from the
 * command tree and the OpenAPI document: a command, flag, example, route or error code changed
 * without running it leaves the files stale, and this test says so.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { referenceFiles } from '../../src/cli/write-reference.js';
import { buildProgram } from '../../src/cli/program.js';
import { commandPath } from '../../src/cli/run.js';
import { openApiDocument } from '../../src/server/openapi.js';

const ROOT = join(import.meta.dirname, '../..');

function* tree(cmd: Command): Generator<Command> {
  yield cmd;
  for (const sub of cmd.commands) yield* tree(sub);
}

describe('docs/reference', () => {
  it('is up to date with the command tree and the OpenAPI document (else run `npm run reference`)', async () => {
    const files = await referenceFiles();
    expect(Object.keys(files)).toEqual(['docs/reference/cli.md', 'docs/reference/api.md']);
    for (const [path, text] of Object.entries(files)) {
      let written = '';
      try {
        written = readFileSync(join(ROOT, path), 'utf8');
      } catch {
        // missing: the comparison below fails with the message
      }
      expect(written === text, `${path} is stale: run \`npm run reference\` and commit the result`).toBe(true);
    }
  });

  it('is stable: the same tree gives the same text, with no date in it', async () => {
    const [a, b] = [await referenceFiles(), await referenceFiles()];
    expect(a).toEqual(b);
    for (const text of Object.values(a)) expect(text).not.toMatch(/\b20\d\d-\d\d-\d\dT/);
  });

  it('has a section for every command and every operation', async () => {
    const files = await referenceFiles();
    const cli = files['docs/reference/cli.md']!;
    const program = await buildProgram(['--help']);
    const paths = [...tree(program)].map(commandPath);
    expect(paths.filter((p) => !new RegExp(`^#{2,6} ${p}$`, 'm').test(cli))).toEqual([]);
    const api = files['docs/reference/api.md']!;
    const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `### ${m.toUpperCase()} /api/v1${path}`));
    expect(ops.length).toBeGreaterThan(20);
    expect(ops.filter((h) => !api.split('\n').includes(h))).toEqual([]);
    expect(api).toMatch(/^\| `TAG_LIMIT_EXCEEDED` \| 403 \| 5 \|$/m);
  });
});

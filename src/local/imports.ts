/** `txa import` (docs/import.md): a file of transactions into the workspace, in one transaction. */
import type { Engine } from '../engine/engine.js';
import { importFile, type ImportOptions } from '../engine/imports.js';

/** The `--rules` hook of an import (src/cli/rules-run.ts `rulesHook`): applies the rules to the new rows, inside the import's transaction. */
export interface NewRowsHook {
  run(engine: Engine, ws: string, ids: string[]): void;
}

export function importsService(engine: Engine) {
  return {
    importFile(ws: string, file: string, opts: Omit<ImportOptions, 'onInserted'> & { rules?: NewRowsHook }) {
      const { rules, ...options } = opts;
      return importFile(engine, ws, file, { ...options, onInserted: rules && ((ids) => rules.run(engine, ws, ids)) });
    },
  };
}

export type ImportsService = ReturnType<typeof importsService>;

/** `txa import` (docs/import.md): a file of transactions into the workspace, in one transaction. */
import type { Engine } from '../engine/engine.js';
import { importAnyFile, type ImportOptions } from '../engine/imports.js';

/** The `--rules` hook of an import (src/cli/rules-run.ts `rulesHook`): applies the rules to the new rows, inside the import's transaction. */
export interface NewRowsHook {
  run(engine: Engine, ws: string, ids: string[]): void;
}

export function importsService(engine: Engine) {
  return {
    /** An XLSX workbook (Gemini's download) is read as the CSV text of its first sheet first (importers/xlsx.ts). */
    importFile(ws: string, file: string, opts: Omit<ImportOptions, 'onInserted' | 'content'> & { rules?: NewRowsHook }) {
      const { rules, ...options } = opts;
      return importAnyFile(engine, ws, file, { ...options, onInserted: rules && ((ids) => rules.run(engine, ws, ids)) });
    },
  };
}

export type ImportsService = ReturnType<typeof importsService>;

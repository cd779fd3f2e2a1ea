/** `txa import` (docs/import.md): a file of transactions into the workspace, in one transaction. */
import type { Engine } from '../engine/engine.js';
import { importAnyFile, type ImportOptions } from '../engine/imports.js';
import { importBrokerLines } from '../engine/broker-lines.js';

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
    /** `--format 1099da`: a broker's lines for one wallet, kept apart from transactions (docs/import.md "1099-DA"). */
    importBrokerLines(ws: string, file: string, walletId: string, dryRun?: boolean) {
      return importBrokerLines(engine, ws, walletId, file, dryRun);
    },
  };
}

export type ImportsService = ReturnType<typeof importsService>;

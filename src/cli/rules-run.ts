/** Rules from the command line: `--rules FILE` of `import` and `wallet sync`, and how a run of rules reads on a terminal or in a pipe. */
import { TxaError } from '../core/errors.js';
import type { Transaction } from '../core/types.js';
import type { Engine } from '../engine/engine.js';
import type { RulesResult } from '../rules/apply.js';
import type { RulesFile } from '../rules/file.js';
import type { Output } from './output.js';

/**
 * A rules file read and checked on its own (INVALID_RULES names the rule and key), as a command
 * reads its input: before the workspace, the ledger or the backend (docs/architecture.md "Output and exit codes").
 */
export async function readRules(path: string): Promise<RulesFile> {
  const { readRulesFile } = await import('../rules/file.js');
  return readRulesFile(path);
}

/**
 * `--rules FILE` of `import` and `wallet sync`: the file is read and checked against the
 * workspace before anything is fetched or written; `run` applies it to new rows inside their
 * transaction, and `take` hands over the outcome of the batches so far (one tally per wallet).
 */
export async function rulesHook(path: string | undefined, dryRun = false) {
  if (path === undefined) return undefined;
  // Here the file is the flag's, not the command's FILE argument (`import FILE --rules FILE`).
  const file = await readRules(path).catch((err: unknown) => {
    throw err instanceof TxaError && err.code === 'IO_ERROR' ? new TxaError('IO_ERROR', err.message, { field: 'rules', cause: err }) : err;
  });
  const { addResults, applyRulesWithin, checkRules, noResult } = await import('../rules/apply.js');
  let total: RulesResult | undefined;
  return {
    check: (engine: Engine, ws: string) => void checkRules(engine, ws, file),
    run(engine: Engine, ws: string, ids: string[]): void {
      const { samples: _, ...result } = applyRulesWithin(engine, ws, file, { onlyIds: ids });
      total = addResults(total, { ...result, dry_run: dryRun });
    },
    take(): RulesResult {
      const r = total ?? noResult(file, dryRun);
      total = undefined;
      return r;
    },
  };
}

/** A table of rules, matched and changed; with samples, a few changed rows under it. Rules that match nothing are warned of. */
export function printRulesResult(out: Output, result: RulesResult, samples?: Transaction[][]): void {
  const verb = result.dry_run ? 'WOULD CHANGE' : 'CHANGED';
  out.table(
    ['RULE', 'MATCHED', verb],
    result.rules.map((r) => [r.name, r.matched, r.changed]),
    ['left', 'right', 'right'],
  );
  if (samples) {
    result.rules.forEach((rule, i) => {
      const rows = samples[i] ?? [];
      if (rows.length === 0) return;
      out.line();
      out.heading(`${rule.name}: ${rule.changed} ${result.dry_run ? 'would change' : 'changed'}, for example`);
      for (const tx of rows) out.line(`  ${sampleLine(tx)}`);
    });
  }
  result.rules.forEach((r, i) => {
    if (r.matched === 0) out.warn(`rule ${i} (${r.name}) matches no transaction`);
  });
  out.notice(
    `${result.changed} ${result.changed === 1 ? 'transaction' : 'transactions'} ${result.dry_run ? 'would change (dry run: nothing was written)' : 'changed'}`,
  );
}

/** A row as it is (or would be) after the rules. */
function sampleLine(tx: Transaction): string {
  const parts = [tx.timestamp, tx.id, tx.wallet_label, tx.direction, `${tx.amount} ${tx.token.symbol}`];
  if (tx.tags.length) parts.push(`tags: ${tx.tags.map((t) => t.name).join(', ')}`);
  if (tx.notes !== null) parts.push(`notes: ${tx.notes}`);
  if (tx.spam) parts.push('spam');
  if (tx.transfer) parts.push(`transfer ${tx.transfer.kind}${tx.transfer.counterpart_id ? ` with ${tx.transfer.counterpart_id}` : ''}`);
  return parts.join('  ');
}

/** The `--rules` hook of an import or a sync run. */
export type RulesHook = NonNullable<Awaited<ReturnType<typeof rulesHook>>>;

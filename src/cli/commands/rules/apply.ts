/** `txa rules apply FILE [--dry-run] [--period P] [--json]` (docs/rules.md). Local only. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { periodSeconds } from '../../period.js';
import { printRulesResult, readRules } from '../../rules-run.js';
import { action } from '../../run.js';

export interface ApplyOptions {
  /** The rules file, YAML or JSON. */
  file: string;
  dryRun?: boolean;
  period?: string;
}

export async function run(ctx: Context, opts: ApplyOptions): Promise<void> {
  const period = periodSeconds(opts.period);
  const ws = ctx.workspace();
  // Read before the ledger is opened, and before LOCAL_ONLY (docs/architecture.md "Output and exit codes").
  const file = await readRules(opts.file);
  const rules = await (await ctx.local('rules apply')).rules();
  const { samples, ...result } = rules.apply(ws, file, { dryRun: opts.dryRun, period });
  ctx.out.result(result, () => printRulesResult(ctx.out, result, samples));
}

export function register(parent: Command): void {
  parent
    .command('apply')
    .description("apply a rules file (YAML or JSON) to the workspace's transactions, in one database transaction")
    .argument('<file>', 'the rules file (docs/rules.md)')
    .option('--dry-run', 'count and show what would change, write nothing')
    .option('--period <period>', 'only rows of YYYY, YYYY-Qn, YYYY-MM, this-month, last-month, last-quarter, last-year or ytd (default: all)')
    .addHelpText('after', '\nA second run changes nothing. A bad file is INVALID_RULES naming the rule and key (rules.2.match.chain); docs/rules.md.')
    .action(action<Omit<ApplyOptions, 'file'>>((ctx, flags, [file]) => run(ctx, { ...flags, file: file! })));
}

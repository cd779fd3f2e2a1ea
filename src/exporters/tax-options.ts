/**
 * The tax ledger's options of an export (docs/accounting.md): the request's method, scope and fee
 * treatment, and what the workspace keeps (wallet order, picks, the recorded allocation).
 */
import type { TaxOptions } from '../accounting/tax-ledger.js';
import type { ExportJob } from './types.js';

export function taxOptionsOf(job: ExportJob): TaxOptions {
  const o = job.options;
  const books = job.taxBooks();
  return {
    method: o.cost_basis,
    ...(o.basis_scope === undefined ? {} : { scope: o.basis_scope }),
    assets: job.assets(),
    feeTreatment: o.fee_treatment,
    walletOrder: books.walletOrder,
    picks: books.picks,
    allocation: { recorded: books.allocation },
    // A recorded allocation made at another moment (`lots allocate --at`) splits the pool then.
    ...(books.transitionAt === undefined ? {} : { transitionAt: books.transitionAt }),
  };
}

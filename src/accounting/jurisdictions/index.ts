/**
 * Every jurisdiction by its code (docs/accounting.md "Jurisdictions"). `ca`, `de` and `au` have
 * their tax year and currency but no rules of their own yet: their reports are refused until they do.
 */
import { COST_BASIS } from '../../core/export-values.js';
import { JURISDICTION_CURRENCY, type JurisdictionCode, taxYearOf, taxYearRange } from '../../core/jurisdictions.js';
import { TxaError } from '../../core/errors.js';
import type { CostBasis } from '../../core/export-values.js';
import type { Jurisdiction } from './types.js';
import { uk } from './uk.js';
import { us } from './us.js';

export type { Jurisdiction, JurisdictionReport, ReportLine, ReportTotal } from './types.js';

/** A jurisdiction whose rules are not written yet: its year and currency only. */
function pending(code: JurisdictionCode, name: string): Jurisdiction {
  return {
    code,
    name,
    currency: JURISDICTION_CURRENCY[code],
    methods: COST_BASIS,
    taxYear: (year) => taxYearRange(code, year),
    taxYearOf: (day) => taxYearOf(code, day),
    columns: null,
    report: null,
  };
}

const ALL: Record<JurisdictionCode, Jurisdiction> = {
  us,
  uk,
  ca: pending('ca', 'Canada'),
  de: pending('de', 'Germany'),
  au: pending('au', 'Australia'),
};

export function jurisdictionOf(code: JurisdictionCode): Jurisdiction {
  return ALL[code];
}

/** Whether a jurisdiction has its own tax report (else: the US one for `us`, refused for the rest). */
export function hasOwnRules(j: Jurisdiction): boolean {
  return j.code === 'us' || j.report !== null;
}

/** The method asked for, if the jurisdiction allows it (INVALID_FIELD `cost_basis` saying what it does). */
export function checkMethod(j: Jurisdiction, method: CostBasis, given: boolean): CostBasis {
  if (!given) return j.methods[0]!;
  if (j.methods.includes(method)) return method;
  const allowed =
    j.methods.length === 1
      ? `only ${j.methods[0]} (${j.code === 'uk' ? 'Section 104 pooling with the same-day and 30-day rules' : 'its rule'})`
      : j.methods.join(', ');
  throw new TxaError('INVALID_FIELD', `cost_basis ${method} is not allowed under jurisdiction ${j.code}: it allows ${allowed}`, { field: 'cost_basis' });
}

/**
 * The United States (docs/accounting.md, every section before "Jurisdictions"): calendar tax year,
 * USD, lots by the chosen method. Its report is the tax ledger's (tax-ledger.ts) written by
 * exporters/tax-report.ts, unchanged.
 */
import { COST_BASIS } from '../../core/export-values.js';
import { taxYearOf, taxYearRange } from '../../core/jurisdictions.js';
import type { Jurisdiction } from './types.js';

export const us: Jurisdiction = {
  code: 'us',
  name: 'United States',
  currency: 'USD',
  methods: COST_BASIS,
  taxYear: (year) => taxYearRange('us', year),
  taxYearOf: (day) => taxYearOf('us', day),
  columns: null,
  report: null,
};

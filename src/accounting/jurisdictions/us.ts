/**
 * The United States (docs/accounting.md, every section before "Jurisdictions"): calendar tax year,
 * USD, lots by the chosen method. Its report is the tax ledger's (tax-ledger.ts) written by
 * exporters/tax-report.ts, unchanged.
 */
import { JURISDICTION_CURRENCY, JURISDICTION_METHODS, JURISDICTION_NAME, taxYearOf, taxYearRange } from '../../core/jurisdictions.js';
import type { Jurisdiction } from './types.js';

export const us: Jurisdiction = {
  code: 'us',
  name: JURISDICTION_NAME.us,
  currency: JURISDICTION_CURRENCY.us,
  methods: JURISDICTION_METHODS.us,
  taxYear: (year) => taxYearRange('us', year),
  taxYearOf: (day) => taxYearOf('us', day),
  columns: null,
  report: null,
};

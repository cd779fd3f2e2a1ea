/**
 * Every jurisdiction by its code (docs/jurisdictions.md). `de` and `au` have
 * their tax year and currency but no rules of their own yet: their tax reports are refused
 * (core/jurisdictions.ts JURISDICTIONS_WITH_TAX_REPORT) until they have.
 */
import { JURISDICTION_CURRENCY, JURISDICTION_METHODS, JURISDICTION_NAME, type JurisdictionCode, taxYearOf, taxYearRange } from '../../core/jurisdictions.js';
import type { Jurisdiction } from './types.js';
import { ca } from './ca.js';
import { uk } from './uk.js';
import { us } from './us.js';

export type { Jurisdiction, JurisdictionReport, ReportLine, ReportTotal } from './types.js';

/** A jurisdiction whose rules are not written yet: its year, currency and methods only. */
function pending(code: JurisdictionCode): Jurisdiction {
  return {
    code,
    name: JURISDICTION_NAME[code],
    currency: JURISDICTION_CURRENCY[code],
    methods: JURISDICTION_METHODS[code],
    taxYear: (year) => taxYearRange(code, year),
    taxYearOf: (day) => taxYearOf(code, day),
    columns: null,
    report: null,
  };
}

const ALL: Record<JurisdictionCode, Jurisdiction> = { us, uk, ca, de: pending('de'), au: pending('au') };

export function jurisdictionOf(code: JurisdictionCode): Jurisdiction {
  return ALL[code];
}

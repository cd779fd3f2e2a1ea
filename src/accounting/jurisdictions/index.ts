/**
 * Every jurisdiction by its code (docs/jurisdictions.md): a sixth country is one module here and
 * its line in the map, with its tax office's worked examples as its tests.
 */
import type { JurisdictionCode } from '../../core/jurisdictions.js';
import { au } from './au.js';
import { ca } from './ca.js';
import { de } from './de.js';
import type { Jurisdiction } from './types.js';
import { uk } from './uk.js';
import { us } from './us.js';

export type { Jurisdiction, JurisdictionReport, ReportLine, ReportTotal } from './types.js';

const ALL: Record<JurisdictionCode, Jurisdiction> = { us, uk, ca, de, au };

export function jurisdictionOf(code: JurisdictionCode): Jurisdiction {
  return ALL[code];
}

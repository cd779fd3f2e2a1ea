/**
 * The jurisdictions a workspace can be in (docs/jurisdictions.md): the codes, their
 * default currencies and tax years. A leaf with no rules in it, so the store, the engine, the CLI
 * and the schemas share it; the rules live in src/accounting/jurisdictions/.
 */
import { TxaError } from './errors.js';
import type { DateRange } from './dates.js';
import { COST_BASIS, JURISDICTIONS, type CostBasis, type JurisdictionCode } from './export-values.js';

export { JURISDICTIONS, type JurisdictionCode };

export const DEFAULT_JURISDICTION: JurisdictionCode = 'us';

/** The currency each jurisdiction's reports are in unless `--currency` says otherwise. */
export const JURISDICTION_CURRENCY: Record<JurisdictionCode, string> = { us: 'USD', uk: 'GBP', ca: 'CAD', de: 'EUR', au: 'AUD' };

/** Month (1-based) and day each tax year starts on: UK 6 April, Australia 1 July, the rest 1 January. */
const YEAR_START: Record<JurisdictionCode, { month: number; day: number }> = {
  us: { month: 1, day: 1 },
  uk: { month: 4, day: 6 },
  ca: { month: 1, day: 1 },
  de: { month: 1, day: 1 },
  au: { month: 7, day: 1 },
};

const pad = (n: number) => String(n).padStart(2, '0');

/** The tax year that starts in `year` (`--period 2024` under `uk`: 2024-04-06 to 2025-04-05). */
export function taxYearRange(code: JurisdictionCode, year: number): DateRange {
  const { month, day } = YEAR_START[code];
  const start = `${year}-${pad(month)}-${pad(day)}`;
  const endMs = Date.UTC(year + 1, month - 1, day) - 86_400_000;
  return { start_date: start, end_date: new Date(endMs).toISOString().slice(0, 10) };
}

/** The year a day's tax year starts in (`2025-04-05` under `uk` is in the tax year 2024). */
export function taxYearOf(code: JurisdictionCode, day: string): number {
  const { month, day: d } = YEAR_START[code];
  const year = Number(day.slice(0, 4));
  return day.slice(5) >= `${pad(month)}-${pad(d)}` ? year : year - 1;
}

/** A code as given (any case) → the code, else INVALID_FIELD naming the known ones. */
export function parseJurisdiction(input: string, field = 'jurisdiction'): JurisdictionCode {
  const code = input.trim().toLowerCase();
  if ((JURISDICTIONS as readonly string[]).includes(code)) return code as JurisdictionCode;
  throw new TxaError('INVALID_FIELD', `${field} must be one of ${JURISDICTIONS.join(', ')}, got '${input}'`, { field });
}

/** The jurisdictions' names, in report titles and errors. */
export const JURISDICTION_NAME: Record<JurisdictionCode, string> = { us: 'United States', uk: 'United Kingdom', ca: 'Canada', de: 'Germany', au: 'Australia' };

/**
 * The `cost_basis` methods each jurisdiction's law allows, the first the default
 * (docs/jurisdictions.md). The UK's matching and Canada's average cost are fixed by law: they take
 * no choice, `fifo` standing for them. Germany takes FIFO per wallet; Australia FIFO or specific
 * identification of the units.
 */
export const JURISDICTION_METHODS: Record<JurisdictionCode, readonly CostBasis[]> = {
  us: COST_BASIS,
  uk: ['fifo'],
  ca: ['fifo'],
  de: ['fifo'],
  au: ['fifo', 'specific'],
};

/** What a jurisdiction allows, said in words where the law leaves no choice. */
const ALLOWED_TEXT: Partial<Record<JurisdictionCode, string>> = {
  uk: 'no choice of lots: disposals are matched by law with same-day, then 30-day acquisitions, then the Section 104 pool at average cost (cost_basis fifo, the default, stands for it)',
  ca: 'no choice of lots: the adjusted cost base is the average cost of all units of the asset across wallets (cost_basis fifo, the default, stands for it)',
  de: 'fifo only: the first units acquired in a wallet are the first disposed of',
};

/** Jurisdictions whose tax report is written (src/accounting/jurisdictions/); the others' is refused. */
export const JURISDICTIONS_WITH_TAX_REPORT: readonly JurisdictionCode[] = ['us', 'uk', 'ca', 'de', 'au'];

/** The method asked for, if the jurisdiction allows it (INVALID_FIELD `cost_basis` saying what it does); not given, its default. */
export function checkMethod(code: JurisdictionCode, method: CostBasis | undefined, field = 'cost_basis'): CostBasis {
  const methods = JURISDICTION_METHODS[code];
  if (method === undefined) return methods[0]!;
  if (methods.includes(method)) return method;
  const allowed = ALLOWED_TEXT[code] ?? methods.join(', ');
  throw new TxaError('INVALID_FIELD', `cost_basis ${method} is not allowed under jurisdiction ${code}: it allows ${allowed}`, { field });
}

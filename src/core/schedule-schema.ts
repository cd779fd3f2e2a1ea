/**
 * The body of `POST /api/v1/schedules` (docs/server.md "Scheduled reports"): a name, a frequency,
 * a time zone, and the export each run makes, in the body of `POST /api/v1/exports` less its
 * dates (the run's period decides them) and with e-mail or webhook delivery. The export part is
 * checked by the export's own parser, so a schedule refuses what an export would, with the same
 * code and field.
 */
import { z } from 'zod';
import { TxaError } from './errors.js';
import { exportCreateSchema, parseExportBody, type ExportRequest } from './export-schema.js';
import { FREQUENCIES, parseTimeZone, type Frequency } from './schedule-periods.js';
import { validateBody } from './validate.js';
import type { ExportRecord, Workspace } from './types.js';

const scheduleFields = {
  name: z.string().trim().min(1, { message: 'must be 1 to 100 characters' }).max(100, { message: 'must be 1 to 100 characters' }),
  every: z.enum(FREQUENCIES, { message: `must be one of ${FREQUENCIES.join(', ')}` }),
  time_zone: z.string({ message: 'must be an IANA time zone name such as Europe/Berlin' }).optional(),
};

/** The whole body as the API reference shows it: the export's body with the schedule's fields (its dates are refused). */
export const scheduleCreateSchema = exportCreateSchema.extend(scheduleFields);

/** The schedule's own fields; the export's are checked by the export's parser. */
const scheduleHeadSchema = z.object({
  workspace_id: z.string().optional(),
  ...scheduleFields,
  format: z.unknown().optional(),
  report_type: z.unknown().optional(),
  filters: z.unknown().optional(),
  columns: z.unknown().optional(),
  options: z.unknown().optional(),
  delivery: z.unknown().optional(),
});

/** What a run exports, stored with the schedule: an export body without dates. */
export interface ScheduleTemplate {
  format: string;
  report_type?: string;
  filters: Record<string, unknown>;
  columns?: string[];
  options: Record<string, unknown>;
  delivery: ExportRequest['delivery'];
}

export interface ScheduleInput {
  name: string;
  every: Frequency;
  time_zone: string;
  template: ScheduleTemplate;
}

/** The dates a run's period sets; a schedule's own would fight them. */
const PERIOD_FILTERS = ['start_date', 'end_date', 'tax_year'] as const;

export function parseScheduleBody(body: unknown, ws?: Pick<Workspace, 'jurisdiction'>): ScheduleInput {
  const head = validateBody(scheduleHeadSchema, body);
  const time_zone = head.time_zone === undefined ? 'UTC' : parseTimeZone(head.time_zone, 'time_zone');
  const b = body as Record<string, unknown>;
  const filters = b.filters;
  if (filters !== null && typeof filters === 'object' && !Array.isArray(filters)) {
    for (const key of PERIOD_FILTERS) {
      if ((filters as Record<string, unknown>)[key] !== undefined)
        throw new TxaError('INVALID_FIELD', `filters.${key} cannot be set on a schedule: each run exports the last complete period of its frequency`, {
          field: `filters.${key}`,
        });
    }
  }
  const delivery = b.delivery as { method?: unknown } | undefined;
  if (delivery === undefined || delivery === null)
    throw new TxaError('MISSING_REQUIRED_FIELD', 'delivery is required: email or webhook', { field: 'delivery' });
  if (typeof delivery === 'object' && delivery.method === undefined)
    throw new TxaError('MISSING_REQUIRED_FIELD', 'delivery.method is required: email or webhook', { field: 'delivery.method' });
  if (delivery.method === 'download')
    throw new TxaError('INVALID_FIELD', 'delivery.method of a schedule is email or webhook: nobody is there to download a scheduled run', {
      field: 'delivery.method',
    });
  const exportBody = { format: b.format, report_type: b.report_type, filters: b.filters, columns: b.columns, options: b.options, delivery: b.delivery };
  const { request } = parseExportBody(exportBody, ws);
  const template: ScheduleTemplate = {
    format: request.format,
    filters: (b.filters as Record<string, unknown> | undefined) ?? {},
    options: (b.options as Record<string, unknown> | undefined) ?? {},
    delivery: request.delivery,
  };
  if (request.report_type !== undefined) template.report_type = request.report_type;
  if (b.columns !== undefined) template.columns = b.columns as string[];
  return { name: head.name, every: head.every, time_zone, template };
}

/** One run of a schedule: the period it exported, its export, when it was made. */
export interface ScheduleRunInfo {
  period_start: string;
  period_end: string;
  export_id: string;
  ran_at: string;
}

export interface Schedule {
  id: string;
  workspace_id: string;
  name: string;
  every: Frequency;
  time_zone: string;
  format: string;
  report_type: string | null;
  filters: Record<string, unknown>;
  columns?: string[];
  options: Record<string, unknown>;
  delivery: ExportRequest['delivery'];
  next_run_at: string;
  last_run: ScheduleRunInfo | null;
  created_at: string;
}

/** The answer of `POST /api/v1/schedules/:id/run`: the run and its export's record. */
export interface ScheduleRun extends ScheduleRunInfo {
  schedule_id: string;
  /** `scheduled` when the run was the period's own (no other process will make it again); `manual` for a repeat. */
  kind: 'scheduled' | 'manual';
  export: ExportRecord;
}

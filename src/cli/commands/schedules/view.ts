/** How schedules and their runs print for humans (the `--json` body is the API's). */
import type { Schedule, ScheduleRun } from '../../../core/schedule-schema.js';
import type { Output } from '../../output.js';

function target(s: Pick<Schedule, 'delivery'>): string {
  return s.delivery.method === 'email' ? (s.delivery.email_recipients ?? []).join(',') : (s.delivery.webhook_url ?? '');
}

export function printSchedules(out: Output, schedules: Schedule[]): void {
  out.table(
    [
      { header: 'ID' },
      { header: 'NAME', fit: 'end' },
      { header: 'EVERY' },
      // At 80 columns the id, name, frequency, recipients and next run leave no room for it.
      { header: 'FORMAT', drop: 3 },
      { header: 'TO', fit: 'middle' },
      { header: 'NEXT RUN', fit: 'date' },
      { header: 'LAST PERIOD', drop: 1 },
      { header: 'LAST EXPORT', drop: 2 },
    ],
    schedules.map((s) => [
      s.id,
      s.name,
      s.every,
      s.report_type ? `${s.format} ${s.report_type}` : s.format,
      target(s),
      s.next_run_at,
      s.last_run ? `${s.last_run.period_start}..${s.last_run.period_end}` : '',
      s.last_run?.export_id ?? '',
    ]),
  );
}

export function printRun(out: Output, run: ScheduleRun): void {
  out.record([
    ['schedule', run.schedule_id],
    ['period', `${run.period_start}..${run.period_end}`],
    ['export', run.export_id],
    ['status', run.export.status],
    ['ran_at', run.ran_at],
  ]);
}

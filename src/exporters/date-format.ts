/** Timestamps in the export's `date_format` (validated by core/export-schema.ts isDateFormat). */

/** Formats an ISO 8601 UTC timestamp (`2024-03-05T14:07:09Z`) with a pattern such as `DD/MM/YYYY HH:mm`. */
export function formatDate(iso: string, pattern: string): string {
  const y = iso.slice(0, 4);
  const m = iso.slice(5, 7);
  const d = iso.slice(8, 10);
  const [day, time] = pattern.split(' ');
  const date = day === 'MM/DD/YYYY' ? `${m}/${d}/${y}` : day === 'DD/MM/YYYY' ? `${d}/${m}/${y}` : `${y}-${m}-${d}`;
  if (time === 'HH:mm:ss') return `${date} ${iso.slice(11, 19)}`;
  if (time === 'HH:mm') return `${date} ${iso.slice(11, 16)}`;
  return date;
}

/**
 * Tag types for the summary and tax reports. A transaction's tags (TagRef) carry no type, so the
 * export pipeline passes the workspace's tags with the job; a tag missing there (deleted while
 * the export ran) is reported under "type unknown" rather than guessed.
 */
import type { TagType } from '../core/types.js';
import type { ExportJob } from './types.js';

export type TagTypeOf = (tagId: string) => TagType | null;

export function tagTypeLookup(job: ExportJob): TagTypeOf {
  const types = new Map(job.tags.map((t) => [t.id, t.type]));
  return (tagId) => types.get(tagId) ?? null;
}

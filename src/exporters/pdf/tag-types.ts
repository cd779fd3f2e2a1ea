/**
 * Tag types for the summary and tax reports. A transaction's tags (TagRef) carry no type, so the
 * export pipeline passes the workspace's tags alongside the job as `tags`; without them every
 * tag is reported under "type unknown" rather than guessed.
 */
import type { Tag, TagType } from '../../core/types.js';
import type { ExportJob } from '../types.js';

export type TagTypeOf = (tagId: string) => TagType | null;

export function tagTypeLookup(job: ExportJob): TagTypeOf {
  const tags = (job as ExportJob & { tags?: readonly Pick<Tag, 'id' | 'type'>[] }).tags ?? [];
  const types = new Map(tags.map((t) => [t.id, t.type]));
  return (tagId) => types.get(tagId) ?? null;
}

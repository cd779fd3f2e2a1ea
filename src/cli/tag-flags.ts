/**
 * Tag flags by id or by name (`--add-tag Payroll`, `--tag-ids Payroll,Gas`): names resolve
 * through the backend's tag list, so local and remote resolve alike; requests carry ids.
 * Any command with a tag flag (rules, transfers, …) can use it.
 */
import type { Backend } from '../core/backend.js';
import type { Tag } from '../core/types.js';
import { resolveTagRefs } from '../core/tag-refs.js';

/** Resolves `refs` given to `flag` to ids (`knownIds`: see resolveTagRefs); the workspace's tags are fetched once, on first need. */
export type TagResolver = (refs: readonly string[], flag: string, knownIds?: boolean) => Promise<string[]>;

export function tagResolver(backend: Backend, workspaceId: string): TagResolver {
  let tags: Promise<Tag[]> | undefined;
  return async (refs, flag, knownIds) => {
    if (refs.length === 0) return [];
    tags ??= backend.listTags(workspaceId);
    return resolveTagRefs(await tags, refs, flag, knownIds);
  };
}

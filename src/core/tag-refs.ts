/**
 * Tags named by id or by name (docs/architecture.md "Tags by name"): the CLI's tag flags take either, and requests still
 * carry ids. Pure: the caller hands in the workspace's tags, from whichever backend.
 */
import { TxaError } from './errors.js';

/** Uniqueness key of a tag name: trimmed, Unicode-normalised, case-folded (names compare by it). */
export function tagNameKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase();
}

/**
 * A value no tag has as id or name is passed on as an id when it has an id's form, so the API
 * keeps its meaning for it (an unknown id in a list filter matches nothing; in a write it is the
 * API's TAG_NOT_FOUND); anything else is an unknown name.
 */
const ID_FORM = /^tag_[A-Za-z0-9]+$/;

interface TagRef {
  id: string;
  name: string;
}

/**
 * The ids `refs` name, in order: a value equal to a tag's id is that tag (so an id always works,
 * even if another tag is named like it); else the tag whose name equals it case-insensitively.
 * `flag` (e.g. `add-tag`) is the error's field. `knownIds`: an unknown id is TAG_NOT_FOUND here,
 * for a change no request would refuse (removing a tag from a set the CLI computes).
 */
export function resolveTagRefs(tags: readonly TagRef[], refs: readonly string[], flag: string, knownIds = false): string[] {
  return refs.map((ref) => {
    if (tags.some((t) => t.id === ref)) return ref;
    const key = tagNameKey(ref);
    const named = tags.filter((t) => tagNameKey(t.name) === key);
    if (named.length === 1) return named[0]!.id;
    if (named.length > 1) {
      // Only a server that keeps names apart by case (or by other differences the key folds) can list two.
      const which = named.map((t) => `${t.id} (${t.name})`).join(', ');
      throw new TxaError('USAGE_ERROR', `tag name '${ref}' is ambiguous: it names ${which}; pass the id instead`, { field: flag });
    }
    if (ID_FORM.test(ref)) {
      if (!knownIds) return ref;
      throw new TxaError('TAG_NOT_FOUND', `tag ${ref} not found`, { field: flag, hint: 'List tags with: txa tags list' });
    }
    throw new TxaError('TAG_NOT_FOUND', `no tag named '${ref}' in this workspace`, { field: flag, hint: 'List tags with: txa tags list' });
  });
}

import type { Item } from '../../../shared/item';
import { rebase } from '../../../shared/merge';
import { mergeBase, toServerShape } from '../store/localItems';
import type { LocalItem } from '../store/types';

/** A local item after `rebase` (src/shared/merge.ts) against a newer server copy. */
export type LocalRebase =
  | { kind: 'current' }
  | { kind: 'merged'; next: LocalItem }
  | { kind: 'conflict'; next: LocalItem };

/**
 * The local item's side of the one rebase, for a pulled page and a 412 alike. A `merged` result must
 * be stored with its queued entries pointed at the new base (sync/queue.ts `rebase`).
 */
export function rebaseLocal(local: LocalItem, remote: Item): LocalRebase {
  const result = rebase(
    {
      item: toServerShape(local),
      base: mergeBase(local),
      dirty: local._dirty,
      deleted: local._deleted === 1,
    },
    remote,
  );
  if (result.kind === 'current') return result;
  if (result.kind === 'conflict') {
    return { kind: 'conflict', next: { ...local, _conflict: result.type, _remote: remote } };
  }
  return { kind: 'merged', next: { ...local, ...result.item, _base: result.base } };
}

/** The conflict dialog's view of an item with an open conflict (the sync engine stores both versions). */
import type { ItemStatus } from '../../../shared/item';
import type { ConflictType, LocalItem } from '../store/types';

/** One version of a conflicting item, as the conflict dialog shows it. */
export interface ConflictVersion {
  title: string;
  description: string | null;
  status: ItemStatus;
  /** ISO time of the last change; null when unknown. */
  modifiedAt: string | null;
  deleted: boolean;
}

export interface ConflictView {
  id: number;
  type: ConflictType;
  /** null when there is no local version to keep. */
  local: ConflictVersion | null;
  /** null when the server deleted the item. */
  remote: ConflictVersion | null;
}

export type ConflictChoice = 'local' | 'remote';

function versionOf(item: LocalItem): ConflictVersion {
  return {
    title: item.title,
    description: item.description,
    status: item.status,
    modifiedAt: item.updated_at,
    deleted: item._deleted === 1,
  };
}

/** The conflict dialog's view of an item with an open conflict. */
export function toConflictView(item: LocalItem): ConflictView {
  const remote = item._remote;
  return {
    id: item.id,
    type: item._conflict ?? 'update',
    local: versionOf(item),
    remote: remote
      ? {
          title: remote.title,
          description: remote.description,
          status: remote.status,
          modifiedAt: remote.updated_at,
          deleted: remote.deleted_at !== null,
        }
      : null,
  };
}

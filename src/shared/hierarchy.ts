import type { ItemType } from './item';

/** Which parent types each item type may live under; `null` means top level. */
export const ALLOWED_PARENT_TYPES = {
  campaign: [],
  task: ['campaign'],
  todo: ['task', 'campaign'],
} as const satisfies Record<ItemType, readonly ItemType[]>;

export interface HierarchyNode {
  id: number;
  type: ItemType;
  parent_id: number | null;
}

/**
 * Why `child` may not sit under `parent` (null when it may). `ancestorsOfParent` are the
 * parent's ancestors, nearest first, so a cycle through them is caught too.
 */
export function hierarchyError(
  child: { id?: number | null; type: ItemType },
  parent: HierarchyNode | null,
  ancestorsOfParent: readonly HierarchyNode[] = [],
): string | null {
  if (parent === null) return null;
  const allowed: readonly ItemType[] = ALLOWED_PARENT_TYPES[child.type];
  if (allowed.length === 0) return `A ${child.type} cannot have a parent.`;
  if (!allowed.includes(parent.type)) {
    return `A ${child.type} cannot be placed under a ${parent.type}.`;
  }
  if (child.id != null && (parent.id === child.id || ancestorsOfParent.some((a) => a.id === child.id))) {
    return 'An item cannot be placed under itself.';
  }
  return null;
}

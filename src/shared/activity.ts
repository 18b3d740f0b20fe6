import type { ActivityAction, ItemType } from './item';

const VERBS = {
  created: 'created',
  updated: 'updated',
  deleted: 'deleted',
  completed: 'completed',
  reopened: 'reopened',
  assigned: 'assigned',
} as const satisfies Record<ActivityAction, string>;

/** A readable line for the activity feed, e.g. 'Alex completed todo "Buy tape"'. */
export function describeActivity(
  actorName: string,
  action: ActivityAction,
  itemType: ItemType,
  title: string,
  assigneeName?: string | null,
): string {
  const base = `${actorName} ${VERBS[action]} ${itemType} "${title}"`;
  if (action === 'assigned')
    return assigneeName ? `${base} to ${assigneeName}` : `${actorName} unassigned ${itemType} "${title}"`;
  return base;
}

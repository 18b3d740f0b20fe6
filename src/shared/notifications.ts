import type { ItemType } from './item';

/** Sharing's kinds: added to or removed from a campaign, or given another role in it. */
export const MEMBERSHIP_NOTIFICATION_KINDS = ['added', 'removed', 'role_changed'] as const;
export type MembershipNotificationKind = (typeof MEMBERSHIP_NOTIFICATION_KINDS)[number];

/** What a notification is about (ARCHITECTURE §4). */
export const NOTIFICATION_KINDS = [
  'assigned',
  'unassigned',
  'completed',
  'reopened',
  'updated',
  'deleted',
  'due',
  'restored',
  // Comments (ARCHITECTURE §5 'Notifications'; who gets which: ./comments.ts commentRecipients).
  'mentioned',
  'commented',
  // Sharing (ARCHITECTURE §5 'Notifications'): to the person added to or removed from a campaign,
  // with the role (membershipText).
  ...MEMBERSHIP_NOTIFICATION_KINDS,
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One entry as the API answers it. */
export interface NotificationEntry {
  id: number;
  kind: NotificationKind;
  text: string;
  item: { id: number; type: ItemType; title: string } | null;
  actor: { id: number; name: string } | null;
  created_at: string;
  read_at: string | null;
  /** For `mentioned` and `commented`: the comment, so the item opens scrolled to it. */
  comment_id?: number | null;
  /** For an `assigned` entry that stands for several items (SYNC.md P8): how many; `item` is the first. */
  item_count?: number;
}

/** The paginated list plus the unread count. */
export interface NotificationPage {
  data: NotificationEntry[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  unread: number;
}

/** Changes by one person to one item within this long of the entry's first one are one entry (joinsBurst). */
export const BURST_MS = 60_000;

/**
 * Entries about other people's changes a person's devices are pushed a minute at most; past it they
 * are still listed (and counted as unread) but not pushed, so nobody's phone is flooded by another's
 * bulk changes (F3). Reminders are the person's own and always pushed.
 */
export const PUSHES_PER_MINUTE = 10;

/** A change to one item, as the write path describes it to the notification rules. */
export interface ItemChange {
  /** The activity action: created, updated, completed, reopened, assigned, deleted, restored. */
  action: string;
  actorId: number;
  creatorId: number;
  /** The assignee after the change. */
  assigneeId: number | null;
  /** For `assigned`: who it was assigned to before (null when nobody). */
  previousAssigneeId?: number | null;
  /** A status change that followed from another item's (roll-up): nobody is told twice. */
  rolledUp?: boolean;
}

const ITEM_KINDS: Record<string, NotificationKind> = {
  updated: 'updated',
  completed: 'completed',
  reopened: 'reopened',
  deleted: 'deleted',
  restored: 'restored',
};

/**
 * Who hears of a change, and as what (ARCHITECTURE §5): the new assignee of an assignment (also one
 * made at creation) and the old one of an unassignment; the creator and the assignee of an item
 * someone else completes, reopens, edits, deletes or restores. Never the actor.
 */
export function recipientsOf(change: ItemChange): { userId: number; kind: NotificationKind }[] {
  if (change.rolledUp) return [];
  const out = new Map<number, NotificationKind>();
  const add = (userId: number | null | undefined, kind: NotificationKind) => {
    if (userId === null || userId === undefined || userId === change.actorId || out.has(userId)) return;
    out.set(userId, kind);
  };
  if (change.action === 'assigned' || change.action === 'created') {
    if (change.action === 'assigned' && change.previousAssigneeId !== change.assigneeId)
      add(change.previousAssigneeId, 'unassigned');
    if (change.action === 'created' || change.previousAssigneeId !== change.assigneeId)
      add(change.assigneeId, 'assigned');
    return [...out].map(([userId, kind]) => ({ userId, kind }));
  }
  const kind = ITEM_KINDS[change.action];
  if (!kind) return [];
  add(change.creatorId, kind);
  add(change.assigneeId, kind);
  return [...out].map(([userId, kind]) => ({ userId, kind }));
}

/** Who a due reminder goes to: the item's creator and its assignee, once each. */
export function reminderRecipients(creatorId: number, assigneeId: number | null): number[] {
  return assigneeId === null || assigneeId === creatorId ? [creatorId] : [creatorId, assigneeId];
}

/**
 * Kinds that fold into one another: an edit into an edit, and a toggle into its own undoing
 * (assigned ⇄ unassigned, completed ⇄ reopened), so a person flipping an item back and forth tells
 * the others once, with where it ended (issue 29 F3).
 */
const BURST_GROUPS: readonly (readonly NotificationKind[])[] = [
  ['updated'],
  ['assigned', 'unassigned'],
  ['completed', 'reopened'],
  // A person's run of comments on one item is one entry, pointing at the latest (F3).
  ['commented'],
  ['mentioned'],
];

/** The kinds an entry of `kind` may fold into (and take over), or none for kinds that never fold. */
export function burstKinds(kind: string): readonly NotificationKind[] {
  return BURST_GROUPS.find((group) => (group as readonly string[]).includes(kind)) ?? [];
}

/**
 * Whether a new entry joins an existing one instead of being written: a change by the same person
 * to the same item of the same burst group (burstKinds), while the existing entry is unread and less
 * than BURST_MS old. The joined entry then says what the latest change was.
 */
export function joinsBurst(
  existing: { kind: string; actorId: number | null; itemId: number | null; createdAt: Date; read: boolean },
  next: { kind: string; actorId: number; itemId: number; at: Date },
): boolean {
  if (existing.read || !(burstKinds(next.kind) as readonly string[]).includes(existing.kind)) return false;
  if (existing.actorId !== next.actorId || existing.itemId !== next.itemId) return false;
  const age = next.at.getTime() - existing.createdAt.getTime();
  return age >= 0 && age < BURST_MS;
}

const PHRASES: Record<NotificationKind, string> = {
  assigned: 'assigned you',
  unassigned: 'unassigned you from',
  completed: 'completed',
  reopened: 'reopened',
  updated: 'edited',
  deleted: 'deleted',
  restored: 'restored',
  due: 'Reminder:',
  mentioned: 'mentioned you on',
  commented: 'commented on',
  // Sharing's entries carry the role and are written by membershipText; these are the fallbacks.
  added: 'added you to',
  removed: 'removed you from',
  role_changed: 'changed your role in',
};

/** The line a person reads, e.g. 'Alex assigned you task “Pack tents”'; a reminder has no actor. */
export function notificationText(
  kind: NotificationKind,
  actorName: string | null,
  itemType: ItemType,
  title: string,
): string {
  if (kind === 'due') return `Reminder: ${itemType} “${title}”`;
  return `${actorName ?? 'Someone'} ${PHRASES[kind]} ${itemType} “${title}”`;
}

/**
 * The line of an `assigned` entry standing for `count` items one person assigned in a run (SYNC.md
 * P8), naming the first: 'Alex assigned you 1,000 items: task “Pack tents” and 999 more'.
 */
export function assignedManyText(
  actorName: string | null,
  count: number,
  firstType: ItemType,
  firstTitle: string,
): string {
  if (count <= 1) return notificationText('assigned', actorName, firstType, firstTitle);
  const more = (count - 1).toLocaleString('en-US');
  return `${actorName ?? 'Someone'} assigned you ${count.toLocaleString('en-US')} items: ${firstType} “${firstTitle}” and ${more} more`;
}

/** An `added` or `removed` entry's line, with the role: 'Alex added you to campaign “Trip” as editor'. */
export function membershipText(
  kind: MembershipNotificationKind,
  actorName: string,
  title: string,
  role: 'editor' | 'viewer',
): string {
  if (kind === 'role_changed') return `${actorName} made you ${withArticle(role)} of campaign “${title}”`;
  return kind === 'added'
    ? `${actorName} added you to campaign “${title}” as ${role}`
    : `${actorName} removed you from campaign “${title}” (you were ${withArticle(role)})`;
}

/** 'an editor', 'a viewer'. */
export function withArticle(role: 'editor' | 'viewer' | 'owner'): string {
  return role === 'viewer' ? 'a viewer' : `an ${role}`;
}

/** How late a device still shows a reminder it missed (the app was closed at the time). */
export const LOCAL_REMINDER_GRACE_MS = 10 * 60 * 1000;

/** What the device knows of an item's reminder. */
export interface ReminderCandidate {
  key: string;
  remind_at: string | null;
  status: string;
  deleted: boolean;
}

/** The key a shown reminder is remembered by: a changed time is a new reminder (re-armed). */
export const reminderKey = (itemKey: string | number, remindAt: string) => `${itemKey}@${remindAt}`;

/**
 * The device's reminders at `now`: those due and not yet shown (at most `graceMs` late), and the time
 * of the next one after `now` (null when none is armed). Completed and deleted items have none.
 */
export function localReminders<T extends ReminderCandidate>(
  items: readonly T[],
  shown: ReadonlySet<string>,
  now: number,
  graceMs = LOCAL_REMINDER_GRACE_MS,
): { due: T[]; next: number | null } {
  const due: T[] = [];
  let next: number | null = null;
  for (const item of items) {
    if (item.remind_at === null || item.deleted || item.status === 'completed') continue;
    const at = Date.parse(item.remind_at);
    if (Number.isNaN(at)) continue;
    if (at > now) {
      next = next === null ? at : Math.min(next, at);
    } else if (now - at <= graceMs && !shown.has(reminderKey(item.key, item.remind_at))) {
      due.push(item);
    }
  }
  return { due, next };
}

/**
 * The app route that shows an item: its own page, a todo's too (/todos/{id}, with its timeline, so a
 * mention in a todo's comment opens at that comment). `parent` is kept for callers that pass it.
 */
export function itemRoute(
  item: { id: number; type: ItemType },
  _parent?: { id: number; type: ItemType } | null,
): string {
  if (item.type === 'campaign') return `/campaigns/${item.id}`;
  if (item.type === 'task') return `/tasks/${item.id}`;
  return `/todos/${item.id}`;
}

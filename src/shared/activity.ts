import { formatDuration } from './duration';
import type { ActivityAction, ActivityEntry, ItemStatus, ItemType } from './item';
import {
  type FieldDescriptor,
  type FieldSchemaKey,
  fieldsWith,
  ITEM_FIELDS,
  type ItemFieldName,
} from './itemFields';
import { withArticle } from './notifications';
import { recurrenceSummary } from './recurrenceText';
import { STATUS_LABELS } from './statusLabel';

const VERBS = {
  created: 'created',
  updated: 'updated',
  deleted: 'deleted',
  completed: 'completed',
  reopened: 'reopened',
  assigned: 'assigned',
  restored: 'restored',
  member_added: 'shared',
  member_removed: 'changed who shares',
  role_changed: 'changed a role in',
  commented: 'commented on',
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

const STATUS_WORDS: Record<ItemStatus, string> = STATUS_LABELS;

const MEMBERSHIP_ACTIONS = new Set(['member_added', 'member_removed', 'role_changed']);
const ROLE_NAMES = new Set(['owner', 'editor', 'viewer']);
const roleName = (value: unknown): 'owner' | 'editor' | 'viewer' | null =>
  typeof value === 'string' && ROLE_NAMES.has(value) ? (value as 'owner' | 'editor' | 'viewer') : null;

/**
 * A membership entry's words after its actor's name, naming whom (issue 50: 'role_changed' and
 * `{"id":7,…}` were shown): 'made Bob an editor', 'added Bob as a viewer', 'joined as an editor',
 * 'removed Bob', 'left'; null for any other action. Only the member's name is read, which anyone
 * who sees the campaign reads in its members list too.
 */
export function membershipPhrase(
  action: string,
  metadata: Record<string, unknown> | null | undefined,
): string | null {
  if (!MEMBERSHIP_ACTIONS.has(action)) return null;
  const data = metadata ?? {};
  const member = data.member as { name?: unknown } | undefined;
  const whom = typeof member?.name === 'string' && member.name ? member.name : 'someone';
  const raw = data.role;
  const role = roleName(isChange(raw) ? raw.new : raw);
  if (action === 'role_changed')
    return role ? `made ${whom} ${withArticle(role)}` : `changed the role of ${whom}`;
  if (action === 'member_removed') return data.left === true ? 'left' : `removed ${whom}`;
  if (data.via === 'invite') return role ? `joined as ${withArticle(role)}` : 'joined';
  return role ? `added ${whom} as ${withArticle(role)}` : `added ${whom}`;
}

/** Each field's name on a line (./itemFields `label`), and a move's, which names the parents by title. */
const FIELD_LABELS: Record<string, string> = {
  ...Object.fromEntries(fieldsWith('label').map((f) => [f, ITEM_FIELDS[f].label])),
  parent: 'Moved',
};

/** Keys an entry keeps for the machine only: a roll-up's flags, and the names the headline already says. */
const HIDDEN_KEYS = new Set(['rolled_up', 'with_parent', 'assignee']);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2030-05-05' (or an ISO time on that day) → '5 May 2030'; anything else as it is. */
export function readableDay(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  const month = MONTHS[Number(match[2]) - 1];
  return month ? `${Number(match[3])} ${month} ${match[1]}` : value;
}

/** A value of no declared kind (a move's parent titles, an older entry's key) as it is. */
function plainValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

const day = (value: unknown) => (typeof value === 'string' ? readableDay(value) : plainValue(value));
/** Values for the machine (an id, a series' uuid, a place in a list): never shown. */
const notShown = () => null;

/**
 * How a value of each kind reads on a line, the kind being the field's `schema` (./itemFields), so a
 * new field of a kind already here needs nothing in this file. Null: the line is not shown. 'Priority:
 * p4 → p1', 'Labels: none → Errand, Home', as quick add writes them.
 */
const READ_AS: Record<FieldSchemaKey, (value: unknown) => string | null> = {
  title: plainValue,
  description: plainValue,
  shortText: plainValue,
  timeZone: plainValue,
  status: (v) => (typeof v === 'string' && v in STATUS_WORDS ? STATUS_WORDS[v as ItemStatus] : plainValue(v)),
  date: day,
  // A reminder reads by its day, as the lists show it.
  instant: day,
  recurrence: (v) => (typeof v === 'string' ? (recurrenceSummary(v) ?? v) : plainValue(v)),
  priority: (v) => (typeof v === 'number' ? `p${v}` : plainValue(v)),
  minutes: (v) => (typeof v === 'number' ? formatDuration(v) : plainValue(v)),
  labels: plainValue,
  // Ids are never shown: a move reads by the parents' titles (`parent`), an assignment by names in
  // the headline; a create records the assignee's name in the id's place, and that is shown.
  ref: (v) => (typeof v === 'string' ? v : null),
  seriesUuid: notShown,
  sortKey: notShown,
};

/** `key`'s value in words by its field's kind ('none' for none), or null when the line is not shown. */
function readableValue(key: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return 'none';
  const field = ITEM_FIELDS[key as ItemFieldName] as FieldDescriptor | undefined;
  return field ? READ_AS[field.schema](value) : plainValue(value);
}

function isChange(value: unknown): value is { old?: unknown; new?: unknown } {
  return typeof value === 'object' && value !== null && ('old' in value || 'new' in value);
}

function humanField(key: string): string {
  const words = key.replace(/_/g, ' ');
  return FIELD_LABELS[key] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

/** A `commented` entry whose comment is deleted, erased, or on an item the reader no longer sees. */
export const COMMENT_NOT_SHOWN = 'The comment is no longer shown here.';

/**
 * The entry's details as readable lines: 'Due date: none → 5 May 2030', 'Status: Pending → In
 * progress'. Ids are never shown: a move reads by the parents' titles, an assignment by names (in the
 * headline); entries written before names were recorded just leave those out. A comment reads as its
 * first words in quotes, or COMMENT_NOT_SHOWN.
 */
export function activityDetails(entry: Pick<ActivityEntry, 'action' | 'metadata' | 'comment'>): string[] {
  // A membership entry's sentence says it all (membershipPhrase); its metadata is for the machine.
  if (MEMBERSHIP_ACTIONS.has(entry.action)) return [];
  // Its metadata is the comment's id, never shown ('Comment id: 3', issue 62); a server from before
  // excerpts sends none, and the headline alone is shown.
  if (entry.action === 'commented') {
    if (entry.comment === undefined) return [];
    return [entry.comment === null || entry.comment === '' ? COMMENT_NOT_SHOWN : `“${entry.comment}”`];
  }
  const metadata = entry.metadata ?? {};
  const lines: string[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    if (HIDDEN_KEYS.has(key)) continue;
    // A completed/reopened entry's verb already says what the status did.
    // So does a roll-up's sentence ('was started automatically, because …').
    if (
      key === 'status' &&
      (entry.action === 'completed' || entry.action === 'reopened' || metadata.rolled_up === true)
    )
      continue;
    if (value === null || value === undefined || value === '') continue;
    const label = humanField(key);
    if (isChange(value)) {
      if (key === 'parent' && value.old == null && value.new == null) continue;
      const [from, to] = [readableValue(key, value.old), readableValue(key, value.new)];
      if (from !== null && to !== null) lines.push(`${label}: ${from} → ${to}`);
    } else {
      const shown = readableValue(key, value);
      if (shown !== null) lines.push(`${label}: ${shown}`);
    }
  }
  if (metadata.parent_id !== undefined && metadata.parent === undefined) lines.push('Moved to another place');
  return lines;
}

/**
 * For a roll-up (a parent's status changed by its children, or a child's by its parent: `with_parent`
 * names the parent's type): 'because …', else null. A todo holds no items, so an older entry of one
 * completed is its parent's doing too.
 */
export function rollUpReason(
  entry: Pick<ActivityEntry, 'metadata'> & { item?: Pick<ActivityEntry['item'], 'type'> },
): string | null {
  const metadata = entry.metadata ?? {};
  if (metadata.rolled_up !== true) return null;
  const status = isChange(metadata.status) ? metadata.status : {};
  const parent = metadata.with_parent;
  if (parent === 'task' || parent === 'campaign') {
    return status.new === 'completed'
      ? `because its ${parent} was completed`
      : `because its ${parent} changed`;
  }
  if (status.new === 'completed' && entry.item?.type === 'todo')
    return 'because the item it is in was completed';
  if (status.new === 'completed') return 'because all its items are done';
  if (status.old === 'completed') return 'because an item inside was added or reopened';
  if (status.new === 'in_progress') return 'because work started on an item inside';
  return 'because of a change to an item inside';
}

/** Who the item went to in an 'assigned' entry: a name, null for unassigning, undefined when unknown. */
export function assigneeOf(
  entry: Pick<ActivityEntry, 'description' | 'metadata'>,
): string | null | undefined {
  const names = entry.metadata?.assignee;
  if (isChange(names)) return typeof names.new === 'string' ? names.new : null;
  // Entries written before the names were recorded: the description named the new assignee.
  const ids = entry.metadata?.assigned_to;
  if (isChange(ids) && (ids.new === null || ids.new === 0)) return null;
  const match = / to (.+)$/.exec(entry.description ?? '');
  return match?.[1] ?? undefined;
}

/** What a guest's device knows of an item, enough to tell its history. */
export interface HistoryItem {
  id: number;
  type: ItemType;
  title: string;
  status: ItemStatus;
  created_at: string;
  completed_at: string | null;
}

/**
 * A local history for a campaign that has no server feed (a guest's): 'created' from each item's
 * created_at, 'completed' from its completed_at, newest first, in the feed's entry shape.
 */
export function localHistory(
  items: readonly HistoryItem[],
  actor: { id: number; name: string },
): ActivityEntry[] {
  const out: ActivityEntry[] = [];
  for (const item of items) {
    const ref = { id: item.id, type: item.type, title: item.title };
    out.push({
      id: -(item.id * 2),
      user: actor,
      action: 'created',
      item: ref,
      description: describeActivity(actor.name, 'created', item.type, item.title),
      metadata: {},
      created_at: item.created_at,
    });
    if (item.status === 'completed' && item.completed_at) {
      out.push({
        id: -(item.id * 2 + 1),
        user: actor,
        action: 'completed',
        item: ref,
        description: describeActivity(actor.name, 'completed', item.type, item.title),
        metadata: {},
        created_at: item.completed_at,
      });
    }
  }
  const time = (e: ActivityEntry) => Date.parse(e.created_at) || 0;
  return out.sort((a, b) => time(b) - time(a) || a.id - b.id);
}

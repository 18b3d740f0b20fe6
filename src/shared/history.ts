import { type FlaggedField, fieldsWith, ITEM_FIELDS } from './itemFields';

/**
 * An item's history (ARCHITECTURE §4 'History'): its feed entries read as changes `{field: {from, to}}`
 * with people by name and parents by title, and the restore rule that reverts one entry. Pure, so the
 * server's revert and the device's 'Restore' button agree on what a restore would change.
 */

/** One history entry as the API answers it. */
export interface HistoryEntry {
  id: number;
  user: { id: number; name: string };
  at: string;
  action: string;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** A membership entry's words after the actor's name ('made Bob an editor', activity membershipPhrase). */
  summary?: string;
  /** The name of the personal access token the change was made through; null when made in the app. */
  via?: string | null;
}

/** A recorded change: the feed's metadata keeps `{old, new}` per field. */
interface Recorded {
  old?: unknown;
  new?: unknown;
}

const isRecorded = (value: unknown): value is Recorded =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && ('old' in value || 'new' in value);

/** Machine-only keys of an entry's metadata: ids have names beside them, a place in a list is no news. */
const NOT_SHOWN = new Set(['rolled_up', 'with_parent', 'assigned_to', 'parent_id', 'sort_key']);

/**
 * An entry's metadata as the changes a reader sees: the assignee by name (`assignee`), the parent by
 * title (`parent`), never ids; keys that are not a change (a roll-up's flag) are left out.
 */
export function historyChanges(metadata: Record<string, unknown>): HistoryEntry['changes'] {
  const out: HistoryEntry['changes'] = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (NOT_SHOWN.has(key) || !isRecorded(value)) continue;
    out[key] = { from: value.old ?? null, to: value.new ?? null };
  }
  return out;
}

/** Fields a restore sets back, with the name the reader knows them by (`changes` and `skipped`), from ./itemFields. */
const REVERTIBLE = Object.fromEntries(
  fieldsWith('history')
    // Named after the plain fields: the assignee (a person by name), then the parent (a move), the
    // order `skipped` has always listed them in.
    .map(
      (f) =>
        [
          f,
          ITEM_FIELDS[f].history,
          ITEM_FIELDS[f].history === f ? 0 : ITEM_FIELDS[f].merge === 'later wins' ? 2 : 1,
        ] as const,
    )
    .sort((a, b) => a[2] - b[2])
    .map(([f, name]) => [f, name]),
) as Record<RevertibleField, string>;
export type RevertibleField = FlaggedField<'history'>;

/** The names a history entry gives the fields a restore sets back (the timeline offers Restore for these). */
export const RESTORABLE_NAMES: ReadonlySet<string> = new Set(Object.values(REVERTIBLE));

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** Whether a stored value is the one an entry wrote: instants by time, lists by element, '' as none. */
function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (blank(a) || blank(b)) return blank(a) && blank(b);
  if (field === 'remind_at' && typeof a === 'string' && typeof b === 'string')
    return Date.parse(a) === Date.parse(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

export interface RevertPlan {
  /** The PATCH that sets back what still holds the entry's value. */
  patch: Partial<Record<RevertibleField, unknown>>;
  /** Fields changed since the entry, left alone, by the names the reader knows them by. */
  skipped: string[];
}

/**
 * The restore rule: each field the entry changed is set back to its `from` where the item still holds
 * the entry's `to`; a field changed since is left alone and named in `skipped`, so a restore never
 * overwrites a later change (someone else's, or the reader's own).
 */
export function planRevert(
  metadata: Record<string, unknown>,
  current: Partial<Record<RevertibleField, unknown>>,
): RevertPlan {
  const patch: RevertPlan['patch'] = {};
  const skipped: string[] = [];
  for (const [field, name] of Object.entries(REVERTIBLE) as [RevertibleField, string][]) {
    const change = metadata[field];
    if (!isRecorded(change)) continue;
    if (sameValue(field, current[field], change.new)) {
      patch[field] = field === 'labels' ? (change.old ?? []) : (change.old ?? null);
    } else skipped.push(name);
  }
  return { patch, skipped };
}

/** Whether an entry has anything a restore could set back (a create or a delete has not). */
export function isRevertible(metadata: Record<string, unknown>): boolean {
  return Object.keys(REVERTIBLE).some((field) => isRecorded(metadata[field]));
}

/** A value before and after, as the feed records it. */
interface FieldChange {
  old: unknown;
  new: unknown;
}

/** One feed entry an update makes: its action and its metadata `{field: {old, new}}`. */
export interface UpdateFeedEntry {
  action: 'updated' | 'completed' | 'reopened' | 'assigned';
  metadata: Record<string, unknown>;
}

/**
 * The feed entries an item's update makes (ARCHITECTURE §4 'History'), the server's and the guest
 * device's alike: the fields it changed in one 'updated' entry (a move names the parents by title,
 * as they were titled then), a status change in its own ('completed' / 'reopened' / 'updated'), a new
 * assignee in its own with the names beside the ids. A new place alone (a drag) is no news.
 * `changed` is the shared update rule's (itemUpdate.ts planUpdate); the names are the caller's I/O.
 */
export function updateFeedEntries(
  changed: Readonly<Record<string, FieldChange | undefined>>,
  names: {
    parent?: { old: string | null; new: string | null };
    assignee?: { old: string | null; new: string | null };
  } = {},
): UpdateFeedEntry[] {
  const { status, assigned_to, sort_key: _place, ...rest } = changed;
  const fields = Object.fromEntries(Object.entries(rest).filter(([, c]) => c !== undefined));
  const entries: UpdateFeedEntry[] = [];
  if (Object.keys(fields).length > 0) {
    const metadata: Record<string, unknown> = { ...fields };
    if (fields.parent_id) metadata.parent = names.parent ?? { old: null, new: null };
    entries.push({ action: 'updated', metadata });
  }
  if (status) {
    const action =
      status.new === 'completed' ? 'completed' : status.old === 'completed' ? 'reopened' : 'updated';
    entries.push({ action, metadata: { status } });
  }
  if (assigned_to)
    entries.push({
      action: 'assigned',
      metadata: { assigned_to, assignee: names.assignee ?? { old: null, new: null } },
    });
  return entries;
}

/** What a reader is shown instead of a title or text they never saw (K22). */
export const HIDDEN_TEXT = '(hidden)';

/** What a reader may not read in an item's history (K22), as the server works it out for them. */
export interface HistoryRedaction {
  /** Parents (by id) the reader does not see: their titles are hidden. */
  hiddenParents: ReadonlySet<number>;
  /** Entries up to this id were written before the item came into the reader's sight; null: none. */
  horizon: number | null;
}

/** The entry's text fields a reader sees only from the moment they could see the item. */
const TEXT_FIELDS = ['title', 'description'] as const;

const parentIdOf = (metadata: Record<string, unknown>, side: 'old' | 'new'): number | null | undefined => {
  const ids = metadata.parent_id;
  if (!isRecorded(ids)) return undefined;
  const id = ids[side];
  return typeof id === 'number' ? id : id == null ? null : undefined;
};

/**
 * The fields of one entry a reader may not read (K22), by the names a restore skips them under: a
 * parent side naming an item they do not see, and the title and description of an entry written
 * before the item came into their sight.
 */
export function hiddenFields(
  entryId: number,
  metadata: Record<string, unknown>,
  redaction: HistoryRedaction,
): { title: boolean; description: boolean; parentOld: boolean; parentNew: boolean } {
  const early = redaction.horizon !== null && entryId <= redaction.horizon;
  // A side without a recorded id cannot be checked: hidden unless it names no parent at all.
  const hidden = (side: 'old' | 'new') => {
    const id = parentIdOf(metadata, side);
    return id === undefined ? true : id !== null && redaction.hiddenParents.has(id);
  };
  return {
    title: early && isRecorded(metadata.title),
    description: early && isRecorded(metadata.description),
    parentOld: isRecorded(metadata.parent) && hidden('old'),
    parentNew: isRecorded(metadata.parent) && hidden('new'),
  };
}

/** An entry's changes as this reader may read them: what they may not, as HIDDEN_TEXT (K22). */
export function redactedChanges(
  entryId: number,
  metadata: Record<string, unknown>,
  redaction: HistoryRedaction,
): HistoryEntry['changes'] {
  const changes = historyChanges(metadata);
  const hidden = hiddenFields(entryId, metadata, redaction);
  const mask = (value: unknown) => (value == null || value === '' ? value : HIDDEN_TEXT);
  for (const field of TEXT_FIELDS) {
    const change = changes[field];
    if (hidden[field] && change) changes[field] = { from: mask(change.from), to: mask(change.to) };
  }
  const parent = changes.parent;
  if (parent) {
    changes.parent = {
      from: hidden.parentOld ? mask(parent.from) : parent.from,
      to: hidden.parentNew ? mask(parent.to) : parent.to,
    };
  }
  return changes;
}

/**
 * The entry's metadata with what the reader may not read left out, for a restore planned by them
 * (K3, K22): a hidden title or text, or a move back to a parent they do not see, is skipped by name.
 */
export function revertableMetadata(
  entryId: number,
  metadata: Record<string, unknown>,
  redaction: HistoryRedaction,
): { metadata: Record<string, unknown>; hidden: string[] } {
  const hidden = hiddenFields(entryId, metadata, redaction);
  const kept = { ...metadata };
  const names: string[] = [];
  for (const field of TEXT_FIELDS) {
    if (!hidden[field]) continue;
    delete kept[field];
    names.push(field);
  }
  if (hidden.parentOld && isRecorded(metadata.parent_id)) {
    delete kept.parent_id;
    delete kept.parent;
    names.push('parent');
  }
  return { metadata: kept, hidden: names };
}

/** A feed entry's metadata with the parents the reader does not see named as HIDDEN_TEXT (K22). */
export function redactedMetadata(
  metadata: Record<string, unknown>,
  hiddenParents: ReadonlySet<number>,
): Record<string, unknown> {
  const parent = metadata.parent;
  if (!isRecorded(parent)) return metadata;
  const hidden = hiddenFields(0, metadata, { hiddenParents, horizon: null });
  const mask = (value: unknown) => (value == null || value === '' ? value : HIDDEN_TEXT);
  return {
    ...metadata,
    parent: {
      old: hidden.parentOld ? mask(parent.old) : parent.old,
      new: hidden.parentNew ? mask(parent.new) : parent.new,
    },
  };
}

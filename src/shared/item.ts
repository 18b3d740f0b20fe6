import { type DeclaredItemFields, fieldsWith, type PatchFieldName } from './itemFields';
import type { Role } from './membership';

/** The three kinds of item, from the biggest goal to the smallest action. */
export const ITEM_TYPES = ['campaign', 'task', 'todo'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Lifecycle of every item: Queue, Active, Completed. */
export const ITEM_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export const TITLE_MAX_LENGTH = 255;
export const TITLE_COUNTER_FROM = 200;
export const DESCRIPTION_MAX_LENGTH = 10_000;
export const SEARCH_MIN_LENGTH = 2;
export const SERVER_SEARCH_LIMIT = 20;
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
export const SYNC_PAGE_SIZE = 500;
/** Rows on a bootstrap's first page (SYNC.md L16): fewer, so a fresh device's first rows show sooner. */
export const SYNC_FIRST_PAGE_SIZE = 100;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Most phones one POST /api/contacts/sync may carry; a bigger address book goes in several. */
export const CONTACTS_PER_REQUEST = 2000;
/**
 * Most items a top-level item (a campaign, or a task of its own) may hold under it. Every cascade
 * (complete, delete, restore, move) works on one such family in one transaction, and the embedded
 * database serves one transaction at a time: the cap bounds how long anyone else waits (issue 29 F0).
 */
export const FAMILY_MAX_ITEMS = 5_000;
export const FAMILY_FULL_MESSAGE =
  'It is full: a campaign (or a task at the top level) holds at most 5,000 items under it. Start another one.';

/**
 * Most items one POST /api/items/batch may create (the guest upgrade sends bigger uploads in several);
 * an import goes up in requests of this many (SYNC.md P9: 2,020 items in 5, not 712).
 */
export const ITEM_BATCH_MAX = 500;

export interface UserSummary {
  id: number;
  name: string;
  phone: string;
  created_at: string;
  updated_at: string;
}

export interface ParentSummary {
  id: number;
  title: string;
  type: ItemType;
  status: ItemStatus;
  parent_id: number | null;
}

/**
 * An item as the API sends it: the fields a person sets (declared once, ./itemFields.ts) and the
 * structure no one sets.
 */
export interface Item extends DeclaredItemFields {
  id: number;
  uuid: string | null;
  type: ItemType;
  user_id: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  deleted_at: string | null;
  version: number;
  created_by: UserSummary;
  user: UserSummary;
  assignedUser: UserSummary | null;
  parent: ParentSummary | null;
  children_count: number;
  completed_count: number;
  /**
   * The caller's role in the campaign the item lies in (ARCHITECTURE §4 'Campaign members and
   * invites', ./membership.ts `mayDo`): `owner` on everything under a campaign they created, shared or
   * not; `editor` or `viewer` on everything under a campaign they are a member of; null when they see
   * the item only as its creator or assignee outside such a campaign (a task of their own at the top
   * level, work assigned to them in a campaign they are no member of). Absent on rows stored before
   * sharing: read it as null.
   */
  my_role?: Role | null;
  /** On a campaign only: how many people it is shared with, its owner included (1 when unshared). */
  members_count?: number;
  /**
   * How many live comments the item has (ARCHITECTURE §4 'Comments', SYNC.md K10–K12). Server-owned:
   * no create or patch takes it (the strict schemas answer 422), and a comment's create or delete
   * moves it with the item's version, never conflicting with an edit (it is no MERGE_FIELDS field).
   * Absent on rows stored before it: read it as 0.
   */
  comments_count?: number;
  /** Finished time-entry minutes on the item and its descendants (§4), kept by the server. */
  spent_minutes?: number;
  /**
   * On a task or a campaign (§4, SYNC.md X14): its own estimate, else the sum of its children's; null
   * when none has one. Computed when read (shared/timeRollup.ts rollupEstimates).
   */
  estimate_total_minutes?: number | null;
}

export interface Paginated<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

/** One page of `total` rows, `perPage` a page: the envelope every paginated answer carries. */
export function paginated<T>(data: T[], page: number, perPage: number, total: number): Paginated<T> {
  return {
    data,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    total,
  };
}

/**
 * How sync tells a device an item is gone for it (deleted, or no longer visible to it): the id, the
 * uuid and when, nothing more, so a user who lost access learns nothing of what the item became.
 */
export interface Tombstone {
  id: number;
  uuid: string | null;
  deleted_at: string;
}

/** One entry of a sync page: an item the user sees, or a tombstone. */
export type SyncChange = Item | Tombstone;

/** True for an entry that removes the item from the device. */
export function isTombstone(change: SyncChange): change is Tombstone {
  return change.deleted_at !== null;
}

export interface SyncPage {
  items: SyncChange[];
  cursor: string;
  has_more: boolean;
  /**
   * L7: how many changes the caller can see after this page's cursor, there when asked for with
   * `count=1` (a progress line: 'Syncing 45,000 of 100,000'). Optional: old clients and servers
   * do without it.
   */
  remaining?: number;
}

export const ACTIVITY_ACTIONS = [
  'created',
  'updated',
  'deleted',
  'completed',
  'reopened',
  'assigned',
  'restored',
  // Campaign membership (ARCHITECTURE §4): the entry's item is the campaign, its metadata names the
  // member (`member {id, name}`) and the role (`role`, or `role {old, new}` for a change).
  'member_added',
  'member_removed',
  'role_changed',
  // A comment on the item (ARCHITECTURE §4 'Comments'): metadata `{comment_id}`. Not a change to the
  // item, so its history leaves it out; the campaign's feed lists it.
  'commented',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export interface ActivityEntry {
  id: number;
  user: { id: number; name: string };
  action: ActivityAction;
  item: { id: number; type: ItemType; title: string };
  description: string;
  metadata: Record<string, unknown>;
  created_at: string;
  /**
   * A `commented` entry's comment, its first words (commentExcerpt) while it is live and the reader
   * sees its item; null once it is deleted, erased or out of the reader's sight (one answer for all).
   */
  comment?: string | null;
  /** The name of the personal access token the change was made through; null when made in the app. */
  via?: string | null;
}

export interface Mutual {
  id: number;
  name: string;
  phone: string;
}

/** The fields a PATCH may change (and the sync merge compares), from ./itemFields. Zod-free, so the
 * client's first screen can use it. */
export const PATCHABLE_FIELDS: readonly PatchableField[] = fieldsWith('patch');
export type PatchableField = PatchFieldName;

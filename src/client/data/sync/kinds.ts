/**
 * Dispatch by queue kind (ARCHITECTURE §6 'Layers inside data/'). sync/ pushes, pulls and uploads an
 * account's items itself; what any other queue kind (src/shared/protocol.ts QUEUE_KINDS) means on the
 * device is the feature's that owns it, through the hooks it registers here. So sync/ names no
 * feature: the composition (client.ts) builds the registry from the features' hooks and hands it in.
 */
import type { ItemChildChanges, ItemChildName } from '../../../shared/itemChildren';
import { ITEM_QUEUE_KINDS, type QueueKind } from '../../../shared/protocol';
import type { OutpostDb } from '../store/db';
import type { ChildWrites, QueueEntry } from '../store/types';
import type { NewEntry } from './queue';

/** What a pulled page carries beside its items: each child kind's rows (comments, K13; time entries, X5). */
export type PulledChildren = { readonly [N in ItemChildName]?: readonly ItemChildChanges[N][] };

/** The kinds sync/ itself sends and settles: an item's own requests. */
export const ITEM_KINDS = ITEM_QUEUE_KINDS;

/** What the 'not synced' toast says of an entry the server refused for good (Q3). */
export interface DropNotice {
  title: string;
  /** Why, as the user reads it. */
  reason: string;
  /** What the device kept (appended to the toast's text; '' for nothing). */
  note: string;
}

/** What a feature does on the device when one of its kinds is answered. */
export interface QueueKindHooks {
  /**
   * Stores the server's answer to a pushed entry, inside the push's transaction (over the sync
   * tables); the entry has already left the queue.
   */
  onPushed(db: OutpostDb, entry: QueueEntry, body: unknown): Promise<void>;
  /**
   * The server refused the entry for good: what the device keeps or puts back, inside the push's
   * transaction (the entry has left the queue). Answers what the toast says.
   */
  onDropped(
    db: OutpostDb,
    entry: QueueEntry,
    refusal: { status: number; message: string },
  ): Promise<DropNotice>;
}

/** The rows a feature adds to a guest's upload: stored and queued after the guest's items (U1). */
export interface UpgradeRows {
  children?: ChildWrites;
  entries: NewEntry[];
}

/** A feature's part in sync: its queue kinds, and what it keeps of a pulled page or a guest's upload. */
export interface SyncFeature {
  kinds?: Partial<Record<QueueKind, QueueKindHooks>>;
  /**
   * Stores what a pulled page carries for the feature, inside the page's transaction, after its items
   * (the children of the items that left with it are removed after this, by sync: K14).
   */
  onPulled?(db: OutpostDb, page: PulledChildren): Promise<void>;
  /**
   * A guest signs in: the feature's rows of the guest's items (`ids`: guest id → temporary id, now
   * `owner`'s), inside the upgrade's transaction.
   */
  onGuestUpgrade?(
    db: OutpostDb,
    ids: ReadonlyMap<number, number>,
    owner: { id: number; name: string },
  ): Promise<UpgradeRows>;
}

/** The features' hooks, by kind. */
export interface SyncRegistry {
  /** The hooks of a feature's kind; null for an item's own kind (sync/ settles those itself). */
  hooksOf(kind: QueueKind): QueueKindHooks | null;
  onPulled(db: OutpostDb, page: PulledChildren): Promise<void>;
  onGuestUpgrade(
    db: OutpostDb,
    ids: ReadonlyMap<number, number>,
    owner: { id: number; name: string },
  ): Promise<UpgradeRows[]>;
}

const isItemKind = (kind: QueueKind): boolean => (ITEM_KINDS as readonly QueueKind[]).includes(kind);

/**
 * The registry of `features`. A kind is registered once, and never an item's own; an entry of a kind
 * nobody registered is an error when it is pushed, never settled as an item's.
 */
export function syncRegistry(features: readonly SyncFeature[]): SyncRegistry {
  const hooks = new Map<QueueKind, QueueKindHooks>();
  for (const feature of features) {
    for (const [kind, own] of Object.entries(feature.kinds ?? {}) as [QueueKind, QueueKindHooks][]) {
      if (isItemKind(kind)) throw new Error(`Queue kind ${kind} is an item's own: sync settles it`);
      if (hooks.has(kind)) throw new Error(`Queue kind ${kind} is registered twice`);
      hooks.set(kind, own);
    }
  }
  return {
    hooksOf(kind) {
      if (isItemKind(kind)) return null;
      const own = hooks.get(kind);
      if (!own) throw new Error(`No feature handles queue kind ${kind}`);
      return own;
    },
    async onPulled(db, page) {
      for (const feature of features) await feature.onPulled?.(db, page);
    },
    async onGuestUpgrade(db, ids, owner) {
      const rows: UpgradeRows[] = [];
      for (const feature of features) {
        const own = await feature.onGuestUpgrade?.(db, ids, owner);
        if (own) rows.push(own);
      }
      return rows;
    },
  };
}

/** No feature's hooks: a pull that keeps only items (a bench's, a test's). */
export const NO_FEATURES: SyncRegistry = syncRegistry([]);

import type { Item } from '../../../shared/item';
import {
  DEFAULT_RETRY_AFTER_S,
  decidePush,
  isStaleWriteBody,
  type PushOutcome as ProtocolPushOutcome,
  QUEUE_KIND_LABELS,
  sendsIfMatch,
} from '../../../shared/protocol';
import { ApiError, isNetworkError } from '../net/apiClient';
import type { QueueEntry } from '../store/types';
import { removeChildrenOf } from './children';
import { handleStale, heldByConflicts, remoteGone } from './conflicts';
import { type SyncContext, TABLES } from './context';
import { importUploadHeld, sendUpgradeBatch } from './guestUpgrade';
import type { DropNotice } from './kinds';
import { lostAccessVerdict, rejectLost } from './lostAccess';
import { confirm as confirmEntries, drop as dropEntries, rebase, retry } from './queue';
import {
  applyConfirmed,
  refusedOnlyForAssignee,
  removeLocally,
  settleAfterDrop,
  withoutAssignee,
} from './settle';
import { swapTempId } from './tempIds';

/** What sending one queued entry came to (documented in src/shared/protocol.ts). */
export type PushOutcome = ProtocolPushOutcome<ApiError>;

export interface PushRun {
  pushed: number;
  dropped: number;
  stopped: PushOutcome['kind'] | null;
  /** The outcome of the `until` entry, when the run reached it. */
  target: PushOutcome | null;
  /** Requests this run sent (answered or not): a run that sent none has no echo to wait for (E1). */
  sent: number;
}

/** Replays the queue (Q1–Q10): one entry at a time, in order, applying each answer. */
export function createPusher(ctx: SyncContext, onHoldEnd: () => void) {
  const { db, api } = ctx;
  // After a 429 the server asked for a pause (Q6): nothing is replayed before `heldUntil`, and one
  // run is scheduled for when it ends. The change stays queued: the limit is not the change's fault.
  let heldUntil = 0;
  let holdTimer: ReturnType<typeof setTimeout> | null = null;

  /** One run when the pause ends (a timer may fire a little before the clock has passed it). */
  function runAfterHold(ms: number): void {
    if (holdTimer) clearTimeout(holdTimer);
    holdTimer = setTimeout(() => {
      holdTimer = null;
      onHoldEnd();
    }, ms);
  }

  function holdFor(error: ApiError): void {
    const wasHeld = Date.now() < heldUntil;
    const ms = Math.max(1, error.retryAfter ?? DEFAULT_RETRY_AFTER_S) * 1000;
    heldUntil = Date.now() + ms;
    runAfterHold(ms);
    // Once per pause, so a burst of writes does not stack up toasts; the server's text names the wait.
    if (!wasHeld) ctx.toast({ title: 'Slow down', description: error.message, variant: 'destructive' });
  }

  /** Q3, Q7: an entry dropped is undone locally and never silently. */
  async function drop(entry: QueueEntry, error: ApiError): Promise<void> {
    const item = await db.items.get(entry.itemId);
    const hooks = ctx.features.hooksOf(entry.kind);
    const notice = await db.transaction('rw', [...TABLES], async (): Promise<DropNotice> => {
      await dropEntries(db, [entry.id]);
      // A feature's kind: the feature says what the device keeps (a comment keeps its text, K20).
      if (hooks) return hooks.onDropped(db, entry, { status: error.status, message: error.message });
      // A refused restore leaves the item deleted on the server: the copy put back here goes again.
      if (entry.kind === 'restore') await removeLocally(db, entry.itemId);
      else await settleAfterDrop(db, entry.itemId);
      return { title: 'Change not synced', reason: error.message, note: '' };
    });
    ctx.toast({
      title: notice.title,
      description: `The ${QUEUE_KIND_LABELS[entry.kind]}${item ? ` for "${item.title}"` : ''} was rejected by the server: ${notice.reason}${notice.note}`,
      variant: 'destructive',
    });
  }

  /** Stores the server's answer; a create's temporary id becomes the server's everywhere. */
  async function confirm(entry: QueueEntry, body: unknown): Promise<number> {
    let finalId = entry.itemId;
    const swaps: [number, number][] = [];
    await db.transaction('rw', [...TABLES], async () => {
      const [current] = await confirmEntries(db, [entry.id]);
      if (!current) return;
      const hooks = ctx.features.hooksOf(current.kind);
      if (hooks) {
        // A feature's kind: the feature stores the answer (a comment's copy and id replace the device's, K8).
        await hooks.onPushed(db, current, body);
        return;
      }
      if (current.kind === 'delete') {
        await removeLocally(db, current.itemId);
        return;
      }
      const server = body as Item;
      let local = await db.items.get(current.itemId);
      if (local && local.id !== server.id) {
        await swapTempId(db, local.id, server.id);
        swaps.push([local.id, server.id]);
        local = await db.items.get(server.id);
      }
      finalId = server.id;
      if (current.kind === 'create' && server.deleted_at) {
        // The uuid names an item deleted on the server (a next occurrence someone deleted, N3):
        // the create meant that item, and it is gone.
        await removeLocally(db, server.id);
        return;
      }
      await rebase(db, server.id, server.version);
      await applyConfirmed(db, server, local);
    });
    for (const [from, to] of swaps) ctx.onIdSwap?.(from, to);
    return finalId;
  }

  async function sendEntry(first: QueueEntry, immediate: boolean, run: PushRun): Promise<PushOutcome> {
    let entry = first;
    for (let attempt = 0; attempt < 4; attempt++) {
      const headers: Record<string, string> = { 'Idempotency-Key': entry.idempotencyKey };
      if (sendsIfMatch(entry.kind) && entry.baseVersion !== null)
        headers['If-Match'] = `"${entry.baseVersion}"`;
      run.sent++;
      try {
        const res = await api.request<unknown>(entry.method, entry.url, {
          body: entry.data ?? undefined,
          headers,
        });
        return { kind: 'done', itemId: await confirm(entry, res.data) };
      } catch (caught) {
        if (!(caught instanceof ApiError)) throw caught;
        const error = caught;
        const ownKind = ctx.features.hooksOf(entry.kind) === null;
        if (ownKind && error.status === 422 && refusedOnlyForAssignee(error.data)) {
          // P22: refused for its assignee alone: it goes again without one, never dropped.
          const item = await db.items.get(entry.itemId);
          const salvaged = await withoutAssignee(db, entry);
          if (salvaged) {
            ctx.toast({
              title: 'Saved without its assignee',
              description: `${item ? `"${item.title}"` : 'The item'} is kept, unassigned: ${error.message}`,
            });
            entry = salvaged;
            continue;
          }
        }
        // Q12, Q20, Q21: refused because the caller lost the campaign (or the item went, or the role
        // forbids it), comments included: kept for export with its cause, told once after the run.
        const verdict = await lostAccessVerdict(db, api, entry, error.status, error.data);
        if (verdict === 'unknown') return { kind: 'network', error };
        if (verdict) {
          await db.transaction('rw', [...TABLES], async () => {
            const gone = await rejectLost(db, entry, error.status, verdict);
            // The items that left take their comments with them (K14).
            await removeChildrenOf(db, gone);
            if (ownKind && error.status === 403) await settleAfterDrop(db, entry.itemId);
            else if (!ownKind && gone.length === 0) {
              const hooks = ctx.features.hooksOf(entry.kind);
              await hooks?.onDropped(db, entry, { status: error.status, message: error.message });
            }
          });
          return { kind: 'dropped', error };
        }
        const decision = decidePush(error.status, isNetworkError(error), {
          kind: entry.kind,
          retries: entry.retries,
          attempt,
          onServer: entry.itemId > 0,
          immediate,
        });
        switch (decision) {
          case 'network':
            return { kind: 'network', error };
          case 'unauthorized':
            return { kind: 'unauthorized', error };
          case 'renew-token':
            // The anti-forgery token went missing (a new session): fetch one and try again, never drop.
            await api.csrfCookie().catch(() => undefined);
            continue;
          case 'hold':
            return { kind: 'held', error };
          case 'rate-limited':
            holdFor(error);
            return { kind: 'held', error };
          case 'stale': {
            const remote = isStaleWriteBody(error.data) ? error.data.item : null;
            if ((await handleStale(db, entry, remote)) === 'conflict') return { kind: 'conflict' };
            const reloaded = await db.syncQueue.get(entry.id);
            if (!reloaded) return { kind: 'done', itemId: entry.itemId };
            entry = reloaded;
            continue;
          }
          case 'already-deleted':
            return { kind: 'done', itemId: await confirm(entry, null) };
          case 'gone':
            await remoteGone(db, entry);
            return { kind: 'conflict' };
          case 'drop':
          case 'drop-after-retries':
            await drop(entry, error);
            return { kind: 'dropped', error };
          case 'retry':
            await retry(db, entry);
            return { kind: 'retry', error };
        }
      }
    }
    return { kind: 'held' };
  }

  /**
   * Replays the queue in order until it is empty or something must stop it (Q1). `until` stops after
   * that entry (a write sent right after it was made, `immediate`).
   */
  async function pushQueue(opts: { until?: string } = {}): Promise<PushRun> {
    const run: PushRun = { pushed: 0, dropped: 0, stopped: null, target: null, sent: 0 };
    if (Date.now() < heldUntil) {
      // The run the pause's end was to start came a moment early: it comes again when the pause ends.
      if (!holdTimer) runAfterHold(heldUntil - Date.now());
      run.stopped = 'held';
      return run;
    }
    // C4: an open conflict holds its own item's changes (and those of what lies under it) until the
    // user answers; every other queued change goes on in order.
    let held = await heldByConflicts(db);
    const budget = (await db.syncQueue.count()) * 3 + 10;
    for (let i = 0; i < budget; i++) {
      const entry =
        held.size === 0
          ? await db.syncQueue.orderBy('seq').first()
          : await db.syncQueue
              .orderBy('seq')
              .filter((e) => !held.has(e.itemId))
              .first();
      if (!entry) break;
      // An import still writing: its upload goes whole when it is done (P9), and the queue keeps order.
      if (entry.tag === 'batch' && importUploadHeld(db)) break;
      // The guest's upload and an import's creates go in batches (U1); what a batch cannot carry
      // goes on its own below.
      const batch = entry.tag !== null ? await sendUpgradeBatch(ctx, run) : null;
      const outcome = batch ?? (await sendEntry(entry, entry.id === opts.until, run));
      if (entry.id === opts.until) run.target = outcome;
      if (entry.tag === 'upgrade') await ctx.refreshStatus();
      if (outcome.kind === 'done') run.pushed += batch?.kind === 'done' ? batch.count : 1;
      else if (outcome.kind === 'dropped') run.dropped++;
      else if (outcome.kind === 'conflict') {
        held = await heldByConflicts(db);
        // A refusal that found nothing here to hold still waits for the next run, not this one.
        held.add(entry.itemId);
      } else {
        run.stopped = outcome.kind;
        break;
      }
      if (entry.id === opts.until) break;
    }
    if (run.stopped === null && held.size > 0) run.stopped = 'conflict';
    return run;
  }

  return {
    pushQueue,
    stop(): void {
      if (holdTimer) clearTimeout(holdTimer);
      holdTimer = null;
    },
  };
}

import { DEFAULT_RETRY_AFTER_S, MAX_RETRIES } from '../../../shared/protocol';
import { ApiError, isNetworkError } from '../net/apiClient';
import { applyResolutions, listConflicts, type Resolution } from './conflicts';
import {
  refreshStatus as computeStatus,
  refreshProgress,
  type SyncContext,
  type SyncEngineDeps,
} from './context';
import { moveGuestDataToAccount } from './guestUpgrade';
import { BUSY, createSyncLock } from './locks';
import { announceRejected } from './lostAccess';
import { type SyncOutcome, syncToast } from './outcome';
import { pull } from './pull';
import { createPusher, type PushOutcome, type PushRun } from './push';
import { createEchoGate, nextSyncDelay, SYNC_INTERVAL_MS } from './triggers';

export { type Conflict, listConflicts, type Resolution } from './conflicts';
export type { SyncEngineDeps } from './context';
export { changesText, type SyncOutcome, syncToast } from './outcome';
export { applyPulled } from './pull';
export type { PushOutcome } from './push';
export { trackReachability } from './reachability';
export { nextSyncDelay, SYNC_INTERVAL_MS } from './triggers';
export { DEFAULT_RETRY_AFTER_S, isNetworkError, MAX_RETRIES };

export interface SyncResult {
  skipped?: 'guest' | 'offline' | 'syncing';
  pushed: number;
  dropped: number;
  pulled: number;
  conflicts: number;
  stopped: PushOutcome['kind'] | null;
  error?: unknown;
  /** What the run came to, as 'Sync Now' tells it (R1). */
  outcome: SyncOutcome;
  /** Changes still queued after the run. */
  pending: number;
}

/** R1: the outcome of a run that was not skipped. */
function decideOutcome(result: SyncResult, online: boolean): SyncOutcome {
  if (result.error !== undefined) {
    if (!isNetworkError(result.error)) return 'failed';
    return online ? 'unreachable' : 'offline';
  }
  if (result.stopped === 'conflict' || result.conflicts > 0) return 'conflicts';
  if (result.stopped === 'retry' || result.stopped === 'held' || result.stopped === 'unauthorized')
    return 'failed';
  return 'synced';
}

/**
 * How a run is asked for: 'Sync Now' (manual) waits for a run under way and tells its outcome unless
 * quiet; the periodic timer's run (periodic) is dropped when one is under way.
 */
export interface SyncOptions {
  manual?: boolean;
  quiet?: boolean;
  periodic?: boolean;
}

/** How long 'Sync Now' waits for a run already under way in this tab. */
const MANUAL_WAIT_MS = 30_000;

export type SyncEngine = ReturnType<typeof createSyncEngine>;

/**
 * The sync engine: pushes the queue (./push.ts), pulls from the cursor (./pull.ts), holds conflicts
 * (./conflicts.ts), runs on the spec's triggers (./triggers.ts); one tab at a time (Web Locks).
 */
export function createSyncEngine(deps: SyncEngineDeps) {
  const { db, status } = deps;
  const lock = deps.lock ?? createSyncLock(`outpost-sync:${db.name}`);
  // A sync asked for while the lock was held: one more run (push and pull) once it is free.
  let again = false;
  // A run (push and pull) under way in this tab, not a push alone: its pull reads to the server's end.
  let running = false;
  // A write queued while the lock was held: its push (only a push: no pull of its own echo, E1)
  // once the lock is free, up to the newest such entry.
  let pushAgain: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const refreshStatus = () => computeStatus(db, status);
  const ctx: SyncContext = { ...deps, refreshStatus };
  // Every run and push under way, so `settled` can wait for them (W2: writes no longer do).
  const inFlight = new Set<Promise<unknown>>();
  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    const done = () => inFlight.delete(work);
    work.then(done, done);
    return work;
  }
  /** A run nobody awaits (a trigger, a follow-up): its failure is the sync status's, never unhandled. */
  const syncInBackground = () => void sync().catch(() => undefined);
  const pusher = createPusher(ctx, syncInBackground);
  const echo = createEchoGate({ pull: syncInBackground });

  /** A push run, told to the echo gate (E1). */
  async function pushQueue(opts: { until?: string } = {}): Promise<PushRun> {
    echo.pushStarted();
    let sent = false;
    try {
      const run = await pusher.pushQueue(opts);
      sent = run.sent > 0;
      return run;
    } finally {
      echo.pushEnded(sent);
    }
  }

  async function ensureUpgrade(): Promise<void> {
    const viewer = deps.viewer();
    if (viewer.isGuest) return;
    if ((await moveGuestDataToAccount(db, viewer.user, deps.features, deps.funnel)) > 0)
      await refreshStatus();
  }

  async function runOnce(result: SyncResult): Promise<void> {
    do {
      again = false;
      // This run's push sends every write queued so far.
      pushAgain = null;
      await ensureUpgrade();
      const push = await pushQueue();
      result.pushed += push.pushed;
      result.dropped += push.dropped;
      result.stopped = push.stopped;
      if (push.stopped === 'network' || push.stopped === 'unauthorized') {
        if (push.stopped === 'network') throw new ApiError('Network error', 0, null, 'NETWORK_ERROR');
        return;
      }
      const pulled = await pull(ctx);
      result.pulled += pulled.pulled;
      // A conflict found now holds the queue until the user resolves it.
    } while (again && deps.isOnline() && !deps.viewer().isGuest);
  }

  /**
   * One sync run: skipped for guests, offline, or while one runs. 'Sync Now' passes manual: it waits
   * for a run under way and then runs, and its toast says what the run came to (R1); `quiet` leaves
   * the telling to the caller (a dialog that reports it in place).
   */
  function sync(opts: SyncOptions = {}): Promise<SyncResult> {
    return track(runSync(opts));
  }

  async function runSync(opts: SyncOptions): Promise<SyncResult> {
    // A run (or an immediate push) under way in this tab: wait for it, so the answer is this run's.
    for (let waited = 0; opts.manual && lock.held && waited < MANUAL_WAIT_MS; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const result = await syncOnce(opts.periodic === true);
    if (!result.skipped || result.skipped === 'offline') result.pending = await db.syncQueue.count();
    if (opts.manual && !opts.quiet) {
      const toast = syncToast(result.outcome, result.pending);
      if (toast) deps.toast(toast);
    }
    return result;
  }

  async function syncOnce(periodic: boolean): Promise<SyncResult> {
    const result: SyncResult = {
      pushed: 0,
      dropped: 0,
      pulled: 0,
      conflicts: 0,
      stopped: null,
      outcome: 'synced',
      pending: 0,
    };
    if (deps.viewer().isGuest) return { ...result, skipped: 'guest', outcome: 'guest' };
    if (!deps.isOnline()) {
      status.getState().setOnline(false);
      return { ...result, skipped: 'offline', outcome: 'offline' };
    }
    if (lock.held) {
      // The periodic tick asks for nothing a run under way does not do: its pull reads to the end.
      // One more run after it would compete with the first screen a user opens once a long first
      // sync (longer than the interval) has ended.
      if (!(periodic && running)) again = true;
      return { ...result, skipped: 'syncing', outcome: 'busy' };
    }
    status.getState().set({ syncing: true });
    let ran: unknown = BUSY;
    try {
      ran = await lock.tryRun(async () => {
        running = true;
        try {
          await runOnce(result);
        } finally {
          running = false;
        }
      });
      if (ran === BUSY) return { ...result, skipped: 'syncing', outcome: 'busy' };
      result.conflicts = (await listConflicts(db)).length;
    } catch (error) {
      result.error = error;
    } finally {
      status.getState().set({ syncing: false });
      await refreshStatus();
      // E8: the server lists follow this; a timer's run that moved nothing is no change to them.
      if (ran !== BUSY && (!periodic || result.pushed + result.dropped + result.pulled > 0))
        status.getState().set({ dataVersion: status.getState().dataVersion + 1 });
      await announceRejected(db, deps.toast, deps.download).catch(() => undefined);
      followUp();
    }
    result.outcome = decideOutcome(result, deps.isOnline());
    // R1: the run's own verdict on the server, whatever its requests were tracked by.
    if (result.outcome === 'unreachable') status.getState().setServerReachable(false);
    else if (result.outcome !== 'offline') status.getState().setServerReachable(true);
    return result;
  }

  /**
   * Sends a just-queued write now, under the sync lock (queue order kept: earlier entries go first).
   * Answers 'queued' when offline, a guest, or another sync holds the lock; that run sends it. The
   * repository starts it and does not wait (W2); `settled` does.
   */
  function pushNow(entryId: string): Promise<PushOutcome> {
    return track(sendNow(entryId));
  }

  async function sendNow(entryId: string): Promise<PushOutcome> {
    // The counts follow the queue live (store/queueCounts.ts watchQueueCounts); a queued write changes nothing else.
    if (deps.viewer().isGuest || !deps.isOnline()) return { kind: 'queued' };
    if (lock.held) {
      pushAgain = entryId;
      return { kind: 'queued' };
    }
    let outcome: PushOutcome = { kind: 'queued' };
    try {
      const ran = await lock.tryRun(async () => {
        await ensureUpgrade();
        const push = await pushQueue({ until: entryId });
        return push.target;
      });
      if (ran !== BUSY && ran) outcome = ran;
    } finally {
      // A sent write moves only the upgrade's progress (the counts follow the queue on their own, once
      // the app has started); a send that failed or left the entry queued recounts everything.
      if (outcome.kind === 'done') await refreshProgress(db, status);
      else await refreshStatus();
      if (outcome.kind === 'dropped')
        await announceRejected(db, deps.toast, deps.download).catch(() => undefined);
    }
    followUp();
    return outcome;
  }

  /** After the lock is released: what was asked for while it was held (a run, else a push). */
  function followUp(): void {
    if (again) {
      syncInBackground();
      return;
    }
    const next = pushAgain;
    pushAgain = null;
    if (next) void pushNow(next).catch(() => undefined);
  }

  /**
   * Resolves once no push or sync run of this engine is under way and no echo pull is waiting (E1):
   * what a write started in the background has then reached the server, or stayed queued for a
   * reason the sync status shows. A 429 pause (Q6) and the periodic timer are not waited for.
   */
  async function settled(): Promise<void> {
    for (;;) {
      if (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      else if (echo.waiting) await new Promise((resolve) => setTimeout(resolve, 20));
      else return;
    }
  }

  /** Resolves every open conflict ('local' re-queues the local change, 'remote' keeps the server's), then syncs. */
  async function resolveConflicts(choices: ReadonlyMap<number, Resolution> | Record<number, Resolution>) {
    await applyResolutions(db, choices, deps.funnel);
    await refreshStatus();
    return sync();
  }

  /** Registers the spec's triggers: start-up, coming online, tab visible, every 30 s with jitter, `changed` (E1). */
  function start(
    sources: {
      onOnlineChange?: (cb: (online: boolean) => void) => () => void;
      onVisible?: (cb: () => void) => () => void;
      onServerChange?: (cb: () => void) => () => void;
      random?: () => number;
      intervalMs?: number;
    } = {},
  ): () => void {
    const interval = sources.intervalMs ?? SYNC_INTERVAL_MS;
    const random = sources.random ?? Math.random;
    const offs: (() => void)[] = [];
    status.getState().setOnline(deps.isOnline());
    if (deps.isOnline()) void sync();
    offs.push(
      sources.onOnlineChange?.((online) => {
        status.getState().setOnline(online);
        if (online) void sync();
      }) ?? (() => {}),
    );
    offs.push(sources.onVisible?.(() => deps.isOnline() && void sync()) ?? (() => {}));
    offs.push(sources.onServerChange?.(() => echo.changed()) ?? (() => {}));
    let stopped = false;
    // Runs in a row that could not reach the server: the next periodic run comes sooner (P15).
    let failures = 0;
    const schedule = () => {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(
        () => {
          timer = null;
          void sync({ periodic: true }).finally(schedule);
        },
        nextSyncDelay(interval, random, failures),
      );
    };
    // Any run's verdict counts, not only the timer's: a write that found the server gone brings the
    // next try forward at once.
    offs.push(
      status.subscribe((state, prev) => {
        if (state.serverReachable === prev.serverReachable) return;
        failures = state.serverReachable ? 0 : failures + 1;
        if (!state.serverReachable) schedule();
      }),
    );
    offs.push(
      status.subscribe((state, prev) => {
        // Still unreachable after another run: back off a step further.
        if (!state.serverReachable && !state.syncing && prev.syncing) {
          failures += 1;
          schedule();
        }
      }),
    );
    schedule();
    void refreshStatus();
    return () => {
      stopped = true;
      for (const off of offs) off();
      if (timer) clearTimeout(timer);
      timer = null;
      pusher.stop();
      echo.stop();
    };
  }

  return {
    sync,
    pushNow,
    settled,
    resolveConflicts,
    listConflicts: () => listConflicts(db),
    refreshStatus,
    start,
    pull: () => pull(ctx),
    pushQueue,
  };
}

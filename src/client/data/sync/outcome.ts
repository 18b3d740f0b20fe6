import type { ToastInput } from '../../stores/toastStore';

/**
 * What a sync run came to, as the user is told it (R1): only a run that reached the server and left
 * nothing it could send behind is 'synced'.
 * - `offline`: the browser has no network; nothing was tried.
 * - `unreachable`: the browser is online but the server did not answer.
 * - `failed`: the server answered with an error, or left changes queued (5xx, rate limit, signed out).
 * - `conflicts`: everything else went, but a conflict holds the queue until the user resolves it.
 * - `busy`: another tab is syncing; `guest`: nothing to sync.
 */
export type SyncOutcome = 'synced' | 'offline' | 'unreachable' | 'failed' | 'conflicts' | 'busy' | 'guest';

/** 'a change' / '3 changes'. */
export function changesText(n: number): string {
  return n === 1 ? '1 change' : `${n} changes`;
}

/** The toast for a manual sync ('Sync Now'): the spec's 'Sync complete' only when it was. */
export function syncToast(outcome: SyncOutcome, pending: number): ToastInput | null {
  const waiting = pending > 0 ? ` — ${changesText(pending)} waiting` : '';
  switch (outcome) {
    case 'synced':
      return { title: 'Sync complete', description: 'Your items have been synchronized.' };
    case 'offline':
      return {
        title: 'Sync failed',
        description: `You're offline${waiting}. Failed to sync items. Please try again when you're connected.`,
        variant: 'destructive',
      };
    case 'unreachable':
      return {
        title: 'Sync failed',
        description: `Server unreachable${waiting}. Failed to sync items. Please try again.`,
        variant: 'destructive',
      };
    case 'failed':
      return {
        title: 'Sync failed',
        description:
          pending > 0
            ? `Failed to sync items${waiting}. Please try again.`
            : 'Failed to sync items. Please try again.',
        variant: 'destructive',
      };
    case 'conflicts':
      return {
        title: 'Sync paused',
        description: `Resolve the conflict to send your changes${waiting}.`,
        variant: 'destructive',
      };
    case 'busy':
      return { title: 'Sync in progress', description: 'Another tab is syncing your items.' };
    case 'guest':
      return null;
  }
}

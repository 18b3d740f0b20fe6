import type { UpgradeProgress } from '../stores/syncStatusStore';

export type UpgradePhase = 'syncing' | 'complete' | 'offline';

export interface UpgradeView {
  phase: UpgradePhase;
  percent: number;
  message: string;
}

/**
 * What the Upgrade dialog shows, from the data layer's real progress (items sent of items to send),
 * not the spec's timer (ARCHITECTURE §6 wins). The sign-in has recorded what it moves before the
 * dialog opens (afterSignIn, then the status refresh), so no progress means nothing to move: done.
 */
export function upgradeView(progress: UpgradeProgress | null, online: boolean): UpgradeView {
  if (progress === null || progress.total === 0) {
    return { phase: 'complete', percent: 100, message: 'Upgrade complete!' };
  }
  const percent = Math.round((Math.min(progress.sent, progress.total) / progress.total) * 100);
  if (progress.done) return { phase: 'complete', percent: 100, message: 'Upgrade complete!' };
  if (!online) {
    return {
      phase: 'offline',
      percent,
      message: 'You are offline. Your items will finish uploading when you are back online.',
    };
  }
  if (progress.sent >= progress.total)
    return { phase: 'syncing', percent: 100, message: 'Finalizing upgrade...' };
  if (progress.sent === 0) return { phase: 'syncing', percent, message: 'Transferring your local data...' };
  return { phase: 'syncing', percent, message: 'Syncing with server...' };
}

/** The spec's delay between 'Upgrade complete!' and closing. */
export const UPGRADE_CLOSE_DELAY_MS = 1500;

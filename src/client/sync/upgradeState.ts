import type { UpgradeProgress } from '../stores/syncStatusStore';

export type UpgradePhase = 'waiting' | 'syncing' | 'complete' | 'offline';

export interface UpgradeView {
  phase: UpgradePhase;
  percent: number;
  message: string;
}

/**
 * What the Upgrade dialog shows, from the data layer's real progress (items sent of items to send),
 * not the spec's timer (ARCHITECTURE §6 wins).
 */
export function upgradeView(
  progress: UpgradeProgress | null,
  online: boolean,
  graceOver: boolean,
): UpgradeView {
  if (progress === null || progress.total === 0) {
    // Nothing to upload (or not started yet): a guest with no items is simply done.
    return graceOver
      ? { phase: 'complete', percent: 100, message: 'Upgrade complete!' }
      : { phase: 'waiting', percent: 0, message: 'Getting things ready...' };
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
/** How long to wait for the data layer to report an upload before treating it as nothing to do. */
export const UPGRADE_GRACE_MS = 1200;

import { useMemo } from 'react';
import { type LiveQuery, useLive } from '../data/live';
import type { LocalAttachment } from '../data/store/types';

export type { LocalAttachment };

/** An item's files on the device, newest first (SYNC.md A1): offline and for guests too. */
const deviceAttachments: LiveQuery<number, LocalAttachment[]> = (reads, itemId) => reads.attachments(itemId);

/**
 * An item's files as the device holds them, live: a file picked here shows at once ('Waiting to
 * upload'), and the uploader's progress and the server's row replace it as they come. Undefined
 * until the device has answered.
 */
export function useAttachments(itemId: number): LocalAttachment[] | undefined {
  const stored = useLive(deviceAttachments, itemId);
  // A delete on its way is gone for the reader already (its row waits for the server's answer).
  return useMemo(() => stored?.filter((a) => a._deleted !== 1), [stored]);
}

/** Whether a file's bytes are only on this device (not uploaded yet): it opens from its Blob. */
export const onDeviceOnly = (a: LocalAttachment) => a.id < 0 || a.url === '';

/** Whether a file is an upload the device still has to make (not a guest's, which stays here, A12). */
export const waitsForUpload = (a: LocalAttachment) =>
  onDeviceOnly(a) && a._syncStatus === 'pending' && a._upload?.state !== 'failed';

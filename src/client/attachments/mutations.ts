import { useMemo } from 'react';
import { useDoor, useToast } from '../app/door';
import type { LocalAttachment } from './queries';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong.');

/** 'File attached', '3 files attached'. */
export const attachedText = (count: number) => (count === 1 ? 'File attached' : `${count} files attached`);

/** Saves bytes the device holds under their name, as a download of the page would. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; a minute leaves a slow disk its time.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Attaches, removes, retries and opens an item's files. Every write goes to the device first (A1):
 * it works offline and for a guest; the uploader sends it when it can.
 */
export function useAttachmentActions(itemId: number) {
  const { send } = useDoor();
  const toast = useToast();

  return useMemo(
    () => ({
      /** Stores the files on the device, where the strip shows them at once; resolves how many were kept. */
      async attach(files: readonly File[]): Promise<number> {
        if (files.length === 0) return 0;
        try {
          const added = await send('attachments.add', { itemId, files: [...files] });
          toast({ title: attachedText(added.length), key: `attached-${itemId}` });
          return added.length;
        } catch (error) {
          toast({
            title: files.length === 1 ? 'File not attached' : 'Files not attached',
            description: messageOf(error),
            variant: 'destructive',
          });
          return 0;
        }
      },
      async remove(file: LocalAttachment) {
        try {
          await send('attachments.remove', { id: file.id });
          toast({ title: 'File removed' });
        } catch (error) {
          toast({ title: 'File not removed', description: messageOf(error), variant: 'destructive' });
        }
      },
      async retry(file: LocalAttachment) {
        try {
          await send('attachments.retry', { uuid: file.uuid });
        } catch (error) {
          toast({ title: 'Not retried', description: messageOf(error), variant: 'destructive' });
        }
      },
      /** The bytes of a file not uploaded yet, from the device (A1); null when the device has none. */
      blob(uuid: string): Promise<Blob | null> {
        return send('attachments.blob', { uuid }).catch(() => null);
      },
      /** Downloads a file the device holds (not uploaded yet); says so when its bytes are gone. */
      async saveFromDevice(file: LocalAttachment) {
        const blob = await send('attachments.blob', { uuid: file.uuid }).catch(() => null);
        if (blob) saveBlob(blob, file.name);
        else toast({ title: 'File not found on this device', variant: 'destructive' });
      },
    }),
    [itemId, send, toast],
  );
}

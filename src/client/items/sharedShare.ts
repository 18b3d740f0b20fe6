/**
 * The steps of a share on the quick add card (./useSharedInto.ts), loaded with the first share so that
 * Home carries none of it: reading `/?share=…`, saying when nothing arrived, attaching the files to
 * the new item and letting the share go.
 */
import { readShareQuery, sharedPrefill } from '../../shared/share';
import type { Send } from '../app/door';
import type { ToastInput } from '../stores/toastStore';
import type { SharedFileChip } from './useSharedInto';

export interface ShareSteps {
  send: Send;
  toast: (input: ToastInput) => unknown;
  /** Takes `share` off the address. */
  forget: () => void;
}

/** A share on the card: its id, its files as chips, and the words for the title and description. */
export interface OpenedShare {
  id: string;
  files: SharedFileChip[];
  words: { title: string; description: string };
}

/**
 * Reads the `share` query: the share it names, or null after saying why there is none (the worker
 * could not read it, the server took it before any worker ran, it is gone).
 */
export async function openShare(raw: string, steps: ShareSteps): Promise<OpenedShare | null> {
  const query = readShareQuery(raw);
  if (query === null) return null;
  if (query.kind === 'failed') {
    steps.toast({
      title: 'The share did not arrive',
      description: 'Outpost could not read what was shared. Please share it again.',
      variant: 'destructive',
    });
    steps.forget();
    return null;
  }
  if (query.kind === 'again') {
    steps.toast({
      title: 'Share it again',
      description: 'Outpost was not ready on this device yet. It is now: share it again to add it here.',
    });
    steps.forget();
    return null;
  }
  const found = await steps.send('transfer.shared', { id: query.id });
  if (!found) {
    steps.toast({
      title: 'That share is gone',
      description: 'It was added already, or it waited more than a day. Please share it again.',
    });
    steps.forget();
    return null;
  }
  return {
    id: query.id,
    files: found.files.map((file, n) => ({ key: `${query.id}-${n}`, file })),
    words: sharedPrefill(
      found,
      found.files.map((f) => f.name),
    ),
  };
}

/** Attaches the share's files to item `itemId` (on the device at once, offline too: SYNC.md A1) and drops the share. */
export async function attachShare(
  share: { id: string; files: readonly SharedFileChip[] },
  itemId: number,
  steps: ShareSteps,
): Promise<void> {
  steps.forget();
  try {
    const files = share.files.map((f) => f.file);
    if (files.length > 0) await steps.send('attachments.add', { itemId, files });
    await steps.send('transfer.dropShared', { id: share.id });
  } catch (error) {
    console.error(error);
    steps.toast({
      title: 'The files could not be attached',
      description: error instanceof Error ? error.message : 'Please try again.',
      variant: 'destructive',
    });
  }
}

/**
 * The steps of a share on the quick add card (./useSharedInto.ts), loaded with the first share so that
 * Home carries none of it: reading `/?share=…`, saying when nothing arrived, the share on the card
 * (its chips, Remove, Cancel), attaching the files to the new item and letting the share go.
 */
import type { SetURLSearchParams } from 'react-router';
import { readShareQuery, sharedPrefill } from '../../shared/share';
import type { Send } from '../app/door';
import type { ToastInput } from '../stores/toastStore';
import type { SharedFileChip, SharedInto } from './useSharedInto';

/** What the card's hook (./useSharedInto.ts) hands the steps. */
export interface ShareSteps {
  send: Send;
  toast: (input: ToastInput) => unknown;
  /** The address's query, from which `share` goes once the share is done with. */
  setParams: SetURLSearchParams;
  /** Puts the share on the card (null: none). */
  show: (share: SharedInto | null) => void;
  /** Fills the card with the share's words. */
  prefill: (words: { title: string; description: string }) => void;
}

/** A share read from the device: its id, its files as chips, and the words for the title and description. */
interface OpenedShare {
  id: string;
  files: SharedFileChip[];
  words: { title: string; description: string };
}

/** Takes `share` off the address (replacing the entry: Back does not open it again). */
function forget(steps: ShareSteps): void {
  steps.setParams(
    (prev) => {
      const next = new URLSearchParams(prev);
      next.delete('share');
      return next;
    },
    { replace: true },
  );
}

/**
 * Opens the share the `share` query names on the card, its words in the fields and its files as
 * chips; when there is none, says why (the worker could not read it, the server took it before any
 * worker ran, it is gone) and takes the query off the address.
 */
export async function openShare(raw: string, steps: ShareSteps): Promise<void> {
  try {
    const opened = await readShare(raw, steps);
    if (!opened) return;
    steps.show(onCard(opened, steps));
    steps.prefill(opened.words);
  } catch (error) {
    console.error(error);
    forget(steps);
  }
}

/** The share the query names, or null after saying why there is none. */
async function readShare(raw: string, steps: ShareSteps): Promise<OpenedShare | null> {
  const query = readShareQuery(raw);
  if (query === null) return null;
  if (query.kind === 'failed') {
    steps.toast({
      title: 'The share did not arrive',
      description: 'Outpost could not read what was shared. Please share it again.',
      variant: 'destructive',
    });
    forget(steps);
    return null;
  }
  if (query.kind === 'again') {
    steps.toast({
      title: 'Share it again',
      description: 'Outpost was not ready on this device yet. It is now: share it again to add it here.',
    });
    forget(steps);
    return null;
  }
  const found = await steps.send('transfer.shared', { id: query.id });
  if (!found) {
    steps.toast({
      title: 'That share is gone',
      description: 'It was added already, or it waited more than a day. Please share it again.',
    });
    forget(steps);
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

/** The share as the card holds it: its chips, and what Remove, Add and Cancel do with it. */
function onCard(share: { id: string; files: readonly SharedFileChip[] }, steps: ShareSteps): SharedInto {
  return {
    files: share.files,
    active: true,
    remove: (key) => steps.show(onCard({ ...share, files: share.files.filter((f) => f.key !== key) }, steps)),
    attachTo: async (itemId) => {
      steps.show(null);
      await attachShare(share, itemId, steps);
    },
    discard: () => {
      steps.show(null);
      forget(steps);
      void steps.send('transfer.dropShared', { id: share.id }).catch(() => undefined);
    },
  };
}

/** Attaches the share's files to item `itemId` (on the device at once, offline too: SYNC.md A1) and drops the share. */
async function attachShare(
  share: { id: string; files: readonly SharedFileChip[] },
  itemId: number,
  steps: ShareSteps,
): Promise<void> {
  forget(steps);
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

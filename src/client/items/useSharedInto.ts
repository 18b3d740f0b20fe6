import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDoor, useToast } from '../app/door';

/** A shared file on the card, with a key of its own (one file may be shared twice). */
export interface SharedFileChip {
  key: string;
  file: File;
}

/** A share on the quick add card (the manifest's share_target, public/share-sw.js). */
export interface SharedInto {
  /** The shared files the new item will hold, as chips. */
  files: readonly SharedFileChip[];
  /** A share is on the card: Cancel puts it aside, and the card is not empty while it is. */
  active: boolean;
  /** Takes one file off the share. */
  remove(key: string): void;
  /** After the card created item `itemId`: attaches the files to it (offline too, SYNC.md A1) and lets the share go. */
  attachTo(itemId: number): Promise<void>;
  /** Puts the share aside (the card's Cancel): the files are not attached. */
  discard(): void;
}

/** No share on the card: what every card but one opened by a share holds. */
const NO_SHARE: SharedInto = {
  files: [],
  active: false,
  remove: () => {},
  attachTo: async () => {},
  discard: () => {},
};

/**
 * Opens what a phone shared in the card: the worker (or the server, before any worker ran) sends the
 * app to `/?share=<id>`; the share's words fill the card (`prefill`, shared/share.ts) and its files
 * wait as chips until the item is created. The `share` query stays until then, so a reload opens it
 * again. `enabled` false: the card ignores shares (only Home's takes them). Only the query's read is
 * here: the share's steps (./sharedShare.ts) load with the first share, not with Home.
 */
export function useSharedInto(
  enabled: boolean,
  prefill: (words: { title: string; description: string }) => void,
): SharedInto {
  const [params, setParams] = useSearchParams();
  const { send } = useDoor();
  const toast = useToast();
  const raw = enabled ? params.get('share') : null;
  const [share, setShare] = useState<SharedInto | null>(null);
  const prefillRef = useRef(prefill);
  prefillRef.current = prefill;
  /** The query read last: a re-render, or React's second effect run in development, reads it once. */
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (raw === null || raw === '' || handled.current === raw) return;
    handled.current = raw;
    // A module that did not arrive leaves the query: a reload opens the share again.
    import('./sharedShare').then(
      ({ openShare }) =>
        openShare(raw, { send, toast, setParams, show: setShare, prefill: (w) => prefillRef.current(w) }),
      console.error,
    );
  }, [raw, send, toast, setParams]);

  return share ?? NO_SHARE;
}

import { useCallback, useEffect, useRef, useState } from 'react';
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

const QUERY = 'share';

/** The share's steps and texts, loaded with the first share, not with Home. */
const steps = () => import('./sharedShare');

/**
 * Opens what a phone shared in the card: the worker (or the server, before any worker ran) sends the
 * app to `/?share=<id>`; the share's words fill the card (`prefill`, shared/share.ts) and its files
 * wait as chips until the item is created. The `share` query stays until then, so a reload opens it
 * again. `enabled` false: the card ignores shares (only Home's takes them).
 */
export function useSharedInto(
  enabled: boolean,
  prefill: (words: { title: string; description: string }) => void,
): SharedInto {
  const [params, setParams] = useSearchParams();
  const { send } = useDoor();
  const toast = useToast();
  const raw = enabled ? params.get(QUERY) : null;
  const [share, setShare] = useState<{ id: string; files: SharedFileChip[] } | null>(null);
  const prefillRef = useRef(prefill);
  prefillRef.current = prefill;
  /** The query read last: a re-render, or React's second effect run in development, reads it once. */
  const handled = useRef<string | null>(null);

  const forget = useCallback(
    () =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete(QUERY);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  useEffect(() => {
    if (raw === null || raw === '' || handled.current === raw) return;
    handled.current = raw;
    steps()
      .then(({ openShare }) => openShare(raw, { send, toast, forget }))
      .then((opened) => {
        if (!opened) return;
        setShare(opened);
        prefillRef.current(opened.words);
      })
      .catch((error: unknown) => {
        console.error(error);
        forget();
      });
  }, [raw, send, toast, forget]);

  return {
    files: share?.files ?? [],
    active: share !== null,
    remove: (key) =>
      setShare((current) =>
        current ? { ...current, files: current.files.filter((f) => f.key !== key) } : current,
      ),
    attachTo: async (itemId) => {
      if (!share) return;
      setShare(null);
      await (await steps()).attachShare(share, itemId, { send, toast, forget });
    },
    discard: () => {
      if (!share) return;
      setShare(null);
      forget();
      void send('transfer.dropShared', { id: share.id }).catch(() => undefined);
    },
  };
}

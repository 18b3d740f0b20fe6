import { X } from 'lucide-react';
import { Toast } from 'radix-ui';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useStore } from 'zustand';
import { cn, focusRing } from '../components/ui/cn';
import type { Toast as ToastData, ToastStore } from '../stores/toastStore';
import { useDoor } from './door';
import { type Box, placeToast, TOAST_PLACE_CLASS, type ToastPlace } from './toastPlacement';

const SWIPE_THRESHOLD = 50;
const EXIT_MS = 150;

/** One toast at a time from the app's one queue (Radix Toast: 5 s, swipe right, F8). */
export default function ToastRegion() {
  // Screens, the sync engine and the service worker's notice all write to this one queue.
  const { toasts: store } = useDoor();
  const queue = useStore(store, (s) => s.queue);
  // One at a time, and the newest wins (the spec's limit of 1): a stale 'Code sent' should not hold
  // back 'Welcome!' for five seconds.
  const current = queue[queue.length - 1] ?? null;

  useEffect(() => {
    for (const stale of queue.slice(0, -1)) store.getState().dismiss(stale.id);
  }, [queue, store]);

  // Placed as each toast (or its in-place update) appears, clear of what the user is working in.
  const [place, setPlace] = useState<ToastPlace>(() => placeNow() ?? placeToast(screenSize(), []));
  useLayoutEffect(() => {
    const next = current ? placeNow() : null;
    if (next) setPlace(next);
  }, [current]);

  return (
    <Toast.Provider swipeDirection="right" swipeThreshold={SWIPE_THRESHOLD} label="Notification">
      {current ? <ToastItem key={current.id} toast={current} store={store} /> : null}
      <Toast.Viewport
        hotkey={['F8']}
        data-toast-viewport
        // Phones: under the header (or above the bottom bar); wider screens: bottom right (or the
        // first corner clear of the focused card).
        className={cn('fixed z-[60] flex flex-col gap-2 outline-none', TOAST_PLACE_CLASS[place])}
      />
    </Toast.Provider>
  );
}

/**
 * What a toast must not cover: the form (or dialog) holding the focused control, since the next press
 * is most likely there — the quick-add card's 'Add todo' after a quick add.
 */
function placeNow(): ToastPlace | null {
  const focused = document.activeElement;
  const avoid: Box[] = [];
  // Focus inside the toast itself (F8) keeps the toast where it is.
  if (focused?.closest('[data-toast-viewport]')) return null;
  if (focused && focused !== document.body) {
    const holder = focused.closest('form, [role="dialog"]') ?? focused;
    avoid.push(holder.getBoundingClientRect());
  }
  return placeToast(screenSize(), avoid);
}

const screenSize = () => ({ width: window.innerWidth, height: window.innerHeight });

function ToastItem({ toast, store }: { toast: ToastData; store: ToastStore }) {
  const [open, setOpen] = useState(true);
  const destructive = toast.variant === 'destructive';
  // Replaced in place (same key) while it was closing: the new text opens again, rather than closing
  // with the old one (a quick add right as the previous 'Item created' timed out showed no toast).
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run for each new revision of the toast
  useEffect(() => setOpen(true), [toast.revision]);
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      const revision = toast.revision;
      // Leave the queue after the exit animation so the next toast does not pop under this one,
      // unless a newer revision of it arrived meanwhile.
      window.setTimeout(() => {
        const now = store.getState().queue.find((t) => t.id === toast.id);
        if (now?.revision === revision) store.getState().dismiss(toast.id);
      }, EXIT_MS);
    }
  };
  return (
    <Toast.Root
      open={open}
      onOpenChange={close}
      // A toast replaced in place (same key) restarts its timer: Radix restarts it when duration changes.
      duration={toast.duration + (toast.revision % 2)}
      type={destructive ? 'foreground' : 'background'}
      className={cn(
        'relative flex items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg',
        'data-[state=open]:animate-[toast-in_180ms_ease-out] data-[state=closed]:animate-[fade-out_150ms_ease-in] data-[swipe=end]:animate-[toast-swipe-out_150ms_ease-out] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform motion-reduce:animate-none',
        destructive
          ? 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100'
          : 'border-zinc-200 bg-white text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
      )}
    >
      <div className="min-w-0 flex-1">
        <Toast.Title className="text-sm font-semibold">{toast.title}</Toast.Title>
        {toast.description ? (
          <Toast.Description
            className={cn(
              'mt-0.5 text-sm',
              destructive ? 'text-red-800 dark:text-red-200' : 'text-zinc-600 dark:text-zinc-400',
            )}
          >
            {toast.description}
          </Toast.Description>
        ) : null}
      </div>
      {toast.action ? (
        <Toast.Action
          altText={toast.action.label}
          onClick={toast.action.onClick}
          className={cn(
            'inline-flex h-8 shrink-0 items-center rounded-md border border-zinc-300 px-3 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-600 dark:hover:bg-zinc-800',
            focusRing,
          )}
        >
          {toast.action.label}
        </Toast.Action>
      ) : null}
      <Toast.Close
        aria-label="Dismiss"
        className={cn(
          'absolute top-3 right-3 inline-flex size-6 items-center justify-center rounded-md text-zinc-500 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
          focusRing,
        )}
      >
        <X className="size-4" aria-hidden />
      </Toast.Close>
    </Toast.Root>
  );
}

import { X } from 'lucide-react';
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { cn, focusRing } from '../components/ui/cn';
import type { ToastStore } from '../stores/toastStore';
import { TOAST_PLACE_CLASS, usualPlace } from './toastPlacement';

/**
 * The toasts without their module: what shows when ToastRegion's chunk cannot be fetched (offline on
 * a first visit, before a service worker holds it). The newest toast, its action and a Dismiss, read
 * out politely, gone after its time; no swipe, animation or F8 (those come with the real region).
 */
export function PlainToast({ store }: { store: ToastStore }) {
  const queue = useStore(store, (s) => s.queue);
  const current = queue[queue.length - 1] ?? null;
  useEffect(() => {
    for (const stale of queue.slice(0, -1)) store.getState().dismiss(stale.id);
  }, [queue, store]);
  useEffect(() => {
    if (!current) return;
    const id = window.setTimeout(() => store.getState().dismiss(current.id), current.duration);
    return () => window.clearTimeout(id);
  }, [current, store]);
  const destructive = current?.variant === 'destructive';
  return (
    <section
      aria-label="Notification"
      aria-live="polite"
      data-toast-viewport
      // Where the real region puts a toast with nothing focused: clear of the phone's add button.
      className={cn('fixed z-[60]', TOAST_PLACE_CLASS[usualPlace(window.innerWidth)])}
    >
      <ol>
        {current ? (
          <li
            data-plain-toast
            className={cn(
              'relative flex items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg',
              destructive
                ? 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100'
                : 'border-zinc-200 bg-white text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
            )}
          >
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold">{current.title}</p>
              {current.description ? (
                <p className="mt-0.5 text-sm opacity-80">{current.description}</p>
              ) : null}
            </div>
            {current.action ? (
              <button
                type="button"
                onClick={() => {
                  current.action?.onClick();
                  store.getState().dismiss(current.id);
                }}
                className={cn(
                  'inline-flex h-8 shrink-0 items-center rounded-md border border-zinc-300 px-3 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-600 dark:hover:bg-zinc-800',
                  focusRing,
                )}
              >
                {current.action.label}
              </button>
            ) : null}
            <button
              type="button"
              aria-label="Dismiss"
              onClick={() => store.getState().dismiss(current.id)}
              className={cn(
                'absolute top-3 right-3 inline-flex size-6 items-center justify-center rounded-md opacity-70 hover:opacity-100',
                focusRing,
              )}
            >
              <X className="size-4" aria-hidden />
            </button>
          </li>
        ) : null}
      </ol>
    </section>
  );
}

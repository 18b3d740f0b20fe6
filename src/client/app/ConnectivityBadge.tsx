import { CloudOff, RefreshCw, ServerOff, Wifi } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { cn } from '../components/ui/cn';
import {
  BADGE_SHOW_MS,
  badgeLabel,
  badgeVisible,
  connectionOf,
  pullProgressLabel,
} from '../stores/syncStatusStore';
import { toast, useDoor } from './door';

/**
 * Offline / Online / 'Online (N pending)' / 'Server unreachable (N pending)' / 'Syncing...': 3 s after
 * a change, and while it matters (R2: no network and no server are told apart). A pull of more than
 * one page shows 'Syncing 45,000 of 100,000' until it ends (L8).
 */
export function ConnectivityBadge({ aboveFab = false }: { aboveFab?: boolean }) {
  const { syncStatus, send } = useDoor();
  const online = useStore(syncStatus, (s) => s.online);
  const serverReachable = useStore(syncStatus, (s) => s.serverReachable);
  const syncing = useStore(syncStatus, (s) => s.syncing);
  const pendingCount = useStore(syncStatus, (s) => s.pendingCount);
  const changedAt = useStore(syncStatus, (s) => s.changedAt);
  const pullProgress = useStore(syncStatus, (s) => s.pullProgress);
  const [now, setNow] = useState(() => Date.now());

  // Re-render when the 3-second window after a change closes.
  useEffect(() => {
    setNow(Date.now());
    if (changedAt === null) return;
    const left = changedAt + BADGE_SHOW_MS - Date.now();
    if (left <= 0) return;
    const timer = window.setTimeout(() => setNow(Date.now()), left + 20);
    return () => window.clearTimeout(timer);
  }, [changedAt]);

  // A routine background run does not show the badge by itself; it only changes the label when shown.
  const connection = connectionOf({ online, serverReachable });
  const progress = connection === 'online' ? pullProgress : null;
  const visible =
    progress !== null || badgeVisible({ online, serverReachable, pendingCount, changedAt }, now);
  const label = progress
    ? pullProgressLabel(progress)
    : badgeLabel({ online, serverReachable, syncing, pendingCount });
  const Icon =
    connection === 'offline'
      ? CloudOff
      : syncing
        ? RefreshCw
        : connection === 'unreachable'
          ? ServerOff
          : Wifi;

  // With changes waiting on a server that did not answer, the badge is a button that tries now (P15)
  // instead of waiting for the next retry; its text stays the status it shows. Online, a sync is
  // already on its way, and the badge stays out of the pointer's way.
  const canSyncNow = visible && !progress && !syncing && pendingCount > 0 && connection === 'unreachable';
  const syncNow = () => {
    // The run toasts what it came to (R1); only a failure to start it is said here.
    send('sync.now').catch(() =>
      toast({
        title: 'Sync failed',
        description: 'Failed to sync items. Please try again.',
        variant: 'destructive',
      }),
    );
  };
  const pillClass = cn(
    'inline-flex h-8 items-center gap-2 rounded-full border px-3 text-xs font-medium shadow-sm',
    connection === 'online'
      ? 'border-zinc-200 bg-white text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200'
      : 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200',
    canSyncNow &&
      'pointer-events-auto cursor-pointer outline-none hover:brightness-95 focus-visible:ring-2 focus-visible:ring-indigo-500/60',
  );
  const content = (
    <>
      <span
        aria-hidden
        className={cn(
          'size-2 rounded-full',
          connection !== 'online'
            ? 'bg-amber-500'
            : pendingCount > 0 || syncing
              ? 'bg-indigo-500'
              : 'bg-green-500',
        )}
      />
      <Icon aria-hidden className={cn('size-3.5', syncing && 'animate-spin motion-reduce:animate-none')} />
      {label}
    </>
  );

  return (
    <div
      role="status"
      aria-live="polite"
      data-connection={connection}
      className={cn(
        'pointer-events-none fixed right-4 z-30 transition-opacity duration-200 motion-reduce:transition-none',
        // On phones it sits above the bottom bar, and above the add button where there is one.
        aboveFab
          ? 'bottom-[calc(4rem+env(safe-area-inset-bottom)+5rem)] md:bottom-4'
          : 'bottom-[calc(4rem+env(safe-area-inset-bottom)+0.75rem)] md:bottom-4',
        visible ? 'opacity-100' : 'opacity-0',
      )}
    >
      {visible ? (
        canSyncNow ? (
          <button
            type="button"
            className={pillClass}
            onClick={syncNow}
            aria-label={`${label}. Sync now`}
            title="Sync now"
          >
            {content}
          </button>
        ) : (
          <span className={pillClass}>{content}</span>
        )
      ) : null}
    </div>
  );
}

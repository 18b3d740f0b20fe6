/**
 * The question before Clear Local Data or Log out (issue 13, item 1): with changes not on the server
 * yet it says how many would be lost, offers 'Sync now' (and says whether it worked), and keeps the
 * destructive action, labelled with what it costs. Loaded on first use: it is not on the first screen.
 */
import { AlertDialog as AlertPrimitive } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { Button } from '../components/ui/Button';
import { overlayClasses } from '../components/ui/Dialog';
import { connectionOf } from '../stores/syncStatusStore';
import { type SyncNowResult, useServices } from './services';

/** The spec's confirmation for Clear Local Data, kept whenever nothing would be lost. */
export const CLEAR_CONFIRM_TEXT = 'Are you sure you want to clear all local data? This cannot be undone.';

export type DataLossAction = 'logout' | 'clear';

/** '1 change' / '3 changes'. */
export function changesText(n: number): string {
  return n === 1 ? '1 change' : `${n} changes`;
}

/** '3 changes are not on the server yet and would be lost.' */
export function lossText(n: number): string {
  return `${changesText(n)} ${n === 1 ? 'is' : 'are'} not on the server yet and would be lost.`;
}

function syncReport(result: SyncNowResult): string {
  const waiting = result.pending > 0 ? ` ${changesText(result.pending)} still waiting.` : '';
  switch (result.outcome) {
    case 'synced':
      return result.pending > 0
        ? `Sync complete, but${waiting}`
        : 'Sync complete — every change is on the server.';
    case 'offline':
      return `Sync failed — you're offline.${waiting}`;
    case 'unreachable':
      return `Sync failed — the server is unreachable.${waiting}`;
    case 'conflicts':
      return `Sync paused — resolve the conflict first.${waiting}`;
    case 'busy':
      return `Another tab is syncing; try again in a moment.${waiting}`;
    default:
      return `Sync failed.${waiting} Please try again.`;
  }
}

export interface DataLossConfirmProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  action: DataLossAction;
  /** Changes not on the server when the question was asked; the live count takes over after. */
  pending: number;
  /** The destructive action itself (log out, or clear and reload). */
  onConfirm: () => Promise<void> | void;
  /**
   * Export hook: export does not exist yet (its own issue). Once it does, pass it here and the dialog
   * offers 'Export first' next to 'Sync now'; until then nothing pretends to export.
   */
  onExport?: () => void;
}

const TITLES: Record<DataLossAction, { risky: string; safe: string }> = {
  logout: { risky: 'Log out with unsynced changes?', safe: 'Log out?' },
  clear: { risky: 'Clear Local Data', safe: 'Clear Local Data' },
};

export default function DataLossConfirm({
  open,
  onOpenChange,
  action,
  pending: initialPending,
  onConfirm,
  onExport,
}: DataLossConfirmProps) {
  const services = useServices();
  const livePending = useStore(services.syncStatus, (s) => s.pendingCount);
  const connection = useStore(services.syncStatus, connectionOf);
  const [pending, setPending] = useState(initialPending);
  const [syncing, setSyncing] = useState(false);
  const [report, setReport] = useState<SyncNowResult | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => setPending(initialPending), [initialPending]);
  // The queue drains or grows while the question is open (a background run, another tab).
  useEffect(() => {
    if (open) setPending(livePending);
  }, [livePending, open]);
  useEffect(() => {
    if (!open) setReport(null);
  }, [open]);

  const syncFirst = async () => {
    setSyncing(true);
    try {
      // Reported in place: a toast over the dialog would say the same thing twice.
      const result = await services.syncNow({ quiet: true });
      setReport(result);
      setPending(result.pending);
    } catch {
      setReport({ ok: false, outcome: 'failed', pending });
    } finally {
      setSyncing(false);
    }
  };

  const confirm = async () => {
    setConfirming(true);
    try {
      await onConfirm();
    } finally {
      setConfirming(false);
    }
  };

  const risky = pending > 0;
  const title = risky ? TITLES[action].risky : TITLES[action].safe;
  const description = risky
    ? lossText(pending)
    : action === 'clear'
      ? CLEAR_CONFIRM_TEXT
      : 'Every change is on the server. You can sign in again on this device at any time.';
  const them = pending === 1 ? 'it' : 'them';
  const hint =
    connection === 'offline'
      ? `You're offline: connect, then sync ${them} first.`
      : connection === 'unreachable'
        ? `The server can't be reached right now. Try syncing ${them} first.`
        : `Sync ${them} first to keep ${them}.`;
  const confirmLabel =
    action === 'logout'
      ? risky
        ? `Log out and lose ${changesText(pending)}`
        : 'Log out'
      : risky
        ? `Clear and lose ${changesText(pending)}`
        : 'Clear Local Data';

  return (
    <AlertPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertPrimitive.Portal>
        <AlertPrimitive.Overlay className={overlayClasses} />
        <AlertPrimitive.Content
          data-testid="data-loss-confirm"
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl outline-none [overflow-wrap:anywhere] data-[state=open]:animate-[dialog-in_180ms_ease-out] data-[state=closed]:animate-[fade-out_150ms_ease-in] motion-reduce:animate-none sm:max-w-md dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <AlertPrimitive.Title className="text-lg leading-7 font-semibold">{title}</AlertPrimitive.Title>
          <AlertPrimitive.Description className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
            {description}
          </AlertPrimitive.Description>
          {risky ? <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{hint}</p> : null}
          <p
            role="status"
            aria-live="polite"
            className={
              report
                ? report.ok && report.pending === 0
                  ? 'mt-3 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800 dark:bg-green-950/60 dark:text-green-200'
                  : 'mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/60 dark:text-amber-200'
                : 'sr-only'
            }
          >
            {report ? syncReport(report) : ''}
          </p>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
            <AlertPrimitive.Cancel asChild>
              <Button variant="outline" disabled={confirming}>
                Cancel
              </Button>
            </AlertPrimitive.Cancel>
            {risky && onExport ? (
              <Button variant="outline" onClick={onExport} disabled={confirming}>
                Export first
              </Button>
            ) : null}
            {/* Not AlertPrimitive.Action: the dialog stays open while the action runs (a reload follows). */}
            <Button variant="danger" onClick={() => void confirm()} disabled={syncing || confirming}>
              {confirming ? (action === 'clear' ? 'Clearing...' : 'Logging out...') : confirmLabel}
            </Button>
            {risky ? (
              <Button variant="primary" onClick={() => void syncFirst()} disabled={syncing || confirming}>
                {syncing ? 'Syncing...' : 'Sync now'}
              </Button>
            ) : null}
          </div>
        </AlertPrimitive.Content>
      </AlertPrimitive.Portal>
    </AlertPrimitive.Root>
  );
}

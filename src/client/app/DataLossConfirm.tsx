/**
 * The question before Clear Local Data or Log out (issue 13, item 1): with changes not on the server
 * yet it says how many would be lost, offers 'Sync now' (and says whether it worked), and keeps the
 * destructive action, labelled with what it costs. Loaded on first use: it is not on the first screen.
 */
import { Download } from 'lucide-react';
import { AlertDialog as AlertPrimitive } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { formatBytes } from '../../shared/attachments';
import { Button } from '../components/ui/Button';
import { overlayClasses } from '../components/ui/Dialog';
import type { SyncNowResult } from '../data/commands/sync';
import { connectionOf } from '../stores/syncStatusStore';
import { useDoor } from './door';

/** The spec's confirmation for Clear Local Data, kept whenever nothing would be lost. */
export const CLEAR_CONFIRM_TEXT = 'Are you sure you want to clear all local data? This cannot be undone.';

export type DataLossAction = 'logout' | 'clear';

/** '1 change' / '3 changes'. */
export function changesText(n: number): string {
  return n === 1 ? '1 change' : `${n} changes`;
}

/** '2 files waiting to upload (8.4 MB)': files whose bytes are only on this device (SYNC.md A14). */
export function filesText(files: { count: number; bytes: number }): string {
  const noun = files.count === 1 ? '1 file' : `${files.count} files`;
  return `${noun} waiting to upload (${formatBytes(files.bytes)})`;
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
  /** With changes at risk, the dialog offers 'Export first' (Outpost JSON of the device) when given. */
  onExport?: () => void;
  /**
   * A guest's items, which exist only on this device: clearing loses all of them, though nothing is
   * queued. With some, the question says so and offers the export.
   */
  localOnly?: number;
  /** Files whose bytes are only on this device (SYNC.md A14): the question names them and their size. */
  waitingFiles?: { count: number; bytes: number };
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
  localOnly = 0,
  waitingFiles,
}: DataLossConfirmProps) {
  const door = useDoor();
  const livePending = useStore(door.syncStatus, (s) => s.pendingCount);
  const connection = useStore(door.syncStatus, connectionOf);
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
      const result = await door.send('sync.now', { quiet: true });
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

  const localRisk = pending === 0 && localOnly > 0;
  const files = waitingFiles && waitingFiles.count > 0 ? waitingFiles : null;
  const risky = pending > 0 || localRisk || files !== null;
  const itemsText = localOnly === 1 ? '1 item' : `${localOnly} items`;
  const title = risky ? TITLES[action].risky : TITLES[action].safe;
  const changesWarning = localRisk
    ? `${itemsText} ${localOnly === 1 ? 'exists' : 'exist'} only on this device and would be lost.`
    : pending > 0
      ? lossText(pending)
      : null;
  // A14: files not uploaded yet are named, with their size, beside the changes.
  const filesWarning = files ? `${filesText(files)} would be lost.` : null;
  const warning = [changesWarning, filesWarning].filter(Boolean).join(' ') || null;
  // Clearing always asks the spec's question; what it would cost is said beside it.
  const description =
    action === 'clear'
      ? CLEAR_CONFIRM_TEXT
      : (warning ?? 'Every change is on the server. You can sign in again on this device at any time.');
  const besideQuestion = action === 'clear' ? warning : null;
  const them = (localRisk ? localOnly : pending > 0 ? pending : (files?.count ?? 0)) === 1 ? 'it' : 'them';
  const hint = localRisk
    ? `Export ${them} first to keep a copy, or sign in to keep ${them} on the server.`
    : connection === 'offline'
      ? `You're offline: connect, then sync ${them} first.`
      : connection === 'unreachable'
        ? `The server can't be reached right now. Try syncing ${them} first.`
        : `Sync ${them} first to keep ${them}.`;
  const lost = localRisk
    ? itemsText
    : pending > 0 || !files
      ? changesText(pending)
      : files.count === 1
        ? '1 file'
        : `${files.count} files`;
  const confirmLabel =
    action === 'logout'
      ? risky
        ? `Log out and lose ${lost}`
        : 'Log out'
      : risky
        ? `Clear and lose ${lost}`
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
          {besideQuestion ? (
            <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 dark:bg-amber-950/60 dark:text-amber-200">
              {besideQuestion}
            </p>
          ) : null}
          {risky ? <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{hint}</p> : null}
          {/* Beside the hint, not in the footer: the footer's three buttons keep their places. */}
          {risky && onExport ? (
            <div className="mt-2">
              <Button variant="outline" size="sm" onClick={onExport} disabled={confirming}>
                <Download aria-hidden />
                Export first
              </Button>
            </div>
          ) : null}
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
            {/* Not AlertPrimitive.Action: the dialog stays open while the action runs (a reload follows). */}
            <Button variant="danger" onClick={() => void confirm()} disabled={syncing || confirming}>
              {confirming ? (action === 'clear' ? 'Clearing...' : 'Logging out...') : confirmLabel}
            </Button>
            {pending > 0 ? (
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

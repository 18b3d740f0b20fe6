import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useDoor } from './door';

const DataLossConfirm = lazy(() => import('./DataLossConfirm'));

/**
 * Log out that never silently discards the queue (issue 13, item 1): with nothing pending it logs out
 * at once; with changes not on the server yet it asks first (DataLossConfirm: how many, 'Sync now',
 * 'Export first', 'Log out and lose N changes'). Render `dialog` outside any menu or sheet that closes on select.
 */
export function useGuardedLogout(options?: { everywhere?: boolean }): {
  logout: () => Promise<void>;
  dialog: ReactNode;
} {
  const services = useDoor();
  const [pending, setPending] = useState<number | null>(null);
  // Files not uploaded yet (SYNC.md A14): a guest cannot send them, so they count as changes do.
  const [files, setFiles] = useState<{ count: number; bytes: number } | undefined>();

  const logout = async () => {
    // Unreadable storage has nothing that could be sent first: the spec's logout goes on.
    const [count, waiting] = await Promise.all([
      services.send('device.pendingChanges').catch(() => 0),
      services.send('attachments.waiting').catch(() => undefined),
    ]);
    if (count === 0 && !waiting?.count) return services.auth.getState().logout(options);
    setFiles(waiting);
    setPending(count);
  };

  // As Clear Local Data offers it: a copy of the device's data, pending changes included.
  const exportFirst = async () => {
    try {
      const { downloadFile } = await import('../preferences/mutations');
      downloadFile(await services.send('transfer.export', 'json'));
    } catch {
      services.toasts
        .getState()
        .push({ title: 'Export failed', description: 'Please try again.', variant: 'destructive' });
    }
  };

  const dialog =
    pending === null ? null : (
      <Suspense fallback={null}>
        <DataLossConfirm
          open
          action="logout"
          pending={pending}
          waitingFiles={files}
          onOpenChange={(open) => {
            if (!open) setPending(null);
          }}
          onConfirm={async () => {
            await services.auth.getState().logout(options);
            setPending(null);
          }}
          onExport={() => void exportFirst()}
        />
      </Suspense>
    );
  return { logout, dialog };
}

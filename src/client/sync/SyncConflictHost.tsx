import { lazy, Suspense, useMemo, useState } from 'react';
import { toast, useDoor } from '../app/door';
import { useMountedOnce } from '../app/useMountedOnce';
import { useConflicts } from '../data/live';
import type { ConflictChoice } from '../data/reads/conflictView';

// Loaded the first time a conflict shows (it brings date-fns): not part of the first screen.
const SyncConflictDialog = lazy(() =>
  import('./SyncConflictDialog').then((m) => ({ default: m.SyncConflictDialog })),
);

/**
 * Opens the conflict dialog whenever the data layer reports conflicts. Cancel hides it for this set of
 * conflicts; a new conflict (or the next sync finding them again) brings it back.
 */
export default function SyncConflictHost() {
  const services = useDoor();
  const conflicts = useConflicts();
  const key = useMemo(() => conflicts.map((c) => c.id).join(','), [conflicts]);
  const [dismissedKey, setDismissedKey] = useState<string | null>(null);
  const open = conflicts.length > 0 && dismissedKey !== key;
  const mounted = useMountedOnce(open);

  const resolve = async (choices: Record<number, ConflictChoice>) => {
    try {
      await services.send('sync.resolveConflicts', choices);
    } catch {
      toast({
        title: 'Sync failed',
        description: 'Failed to sync items. Please try again.',
        variant: 'destructive',
      });
    }
  };

  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <SyncConflictDialog
        open={open}
        conflicts={conflicts}
        onCancel={() => setDismissedKey(key)}
        onResolve={resolve}
      />
    </Suspense>
  );
}

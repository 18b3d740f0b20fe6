import { useMemo, useState } from 'react';
import { type ConflictChoice, toast, useServices } from '../app/services';
import { SyncConflictDialog } from './SyncConflictDialog';

/**
 * Opens the conflict dialog whenever the data layer reports conflicts. Cancel hides it for this set of
 * conflicts; a new conflict (or the next sync finding them again) brings it back.
 */
export function SyncConflictHost() {
  const services = useServices();
  const conflicts = services.useConflicts();
  const key = useMemo(() => conflicts.map((c) => c.id).join(','), [conflicts]);
  const [dismissedKey, setDismissedKey] = useState<string | null>(null);
  const open = conflicts.length > 0 && dismissedKey !== key;

  const resolve = async (choices: Record<number, ConflictChoice>) => {
    try {
      await services.resolveConflicts(choices);
    } catch {
      toast({
        title: 'Sync failed',
        description: 'Failed to sync items. Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <SyncConflictDialog
      open={open}
      conflicts={conflicts}
      onCancel={() => setDismissedKey(key)}
      onResolve={resolve}
    />
  );
}

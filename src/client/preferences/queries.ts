import { useQuery } from '@tanstack/react-query';
import { useAuthState, useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import type { TrashView } from '../data/items/undoStack';
import type { StorageInfo } from '../data/transfer/dataTransfer';

/**
 * Preferences › Trash: the device's deletes, and the server's trash for a signed-in user online. A
 * server list under SERVER_LIST_KEY, so the door's change signal refreshes it like the others.
 */
export function useTrash(): { entries: TrashView[] | null; error: boolean } {
  const { send } = useDoor();
  const userId = useAuthState((s) => s.user.id);
  const query = useQuery({
    queryKey: [SERVER_LIST_KEY, 'trash', userId],
    queryFn: () => send('trash.list'),
    staleTime: 0,
  });
  return { entries: query.data ?? null, error: query.isError };
}

/** What the device stores (items, bytes, kept or not), read when Preferences opens. */
export function useStorageInfo(): StorageInfo | null {
  const { send } = useDoor();
  const userId = useAuthState((s) => s.user.id);
  const query = useQuery({
    queryKey: [SERVER_LIST_KEY, 'storage', userId],
    queryFn: () => send('transfer.storage'),
    staleTime: 0,
  });
  return query.data ?? null;
}

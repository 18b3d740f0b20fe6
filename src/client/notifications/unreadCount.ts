import { useStore } from 'zustand';
import { useDoor, useSignedInUser } from '../app/door';

// Apart from ./queries (which reads the device's items for links): the header shows the bell on
// every screen, so this stays as light as the stores it reads.

/** The bell's unread count (0 for guests and before anything is known). */
export function useUnreadCount(): number {
  const { notifications } = useDoor();
  const signedIn = useSignedInUser() !== null;
  const unread = useStore(notifications, (s) => s.unread);
  return signedIn ? unread : 0;
}

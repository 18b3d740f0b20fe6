import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useDoor } from './door';
import { swappedPath } from './idSwapRoute';

/** Keeps an open /tasks/{id} or /campaigns/{id} page on its item when a temporary id is swapped. */
export function FollowIdSwaps() {
  const { client } = useDoor();
  const navigate = useNavigate();
  const location = useLocation();
  // Read when a swap arrives, not when the subscription was made.
  const current = useRef(location);
  current.current = location;
  useEffect(() => {
    if (!client) return;
    return client.onIdSwap((oldId, newId) => {
      const { pathname, search } = current.current;
      const next = swappedPath(pathname, oldId, newId);
      if (next) void navigate(`${next}${search}`, { replace: true });
    });
  }, [client, navigate]);
  return null;
}

import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { swappedPath } from '../app/idSwapRoute';

/**
 * Keeps a detail page's address on the item it shows: a page opened at an id the item no longer has
 * (a guest id its sign-in moved, a temporary id another tab swapped) shows it by where it went, and
 * the address follows, so its children, progress and a reload read the item's own id.
 */
export function useItemAddress(item: { id: number } | null | undefined, routeId: number): void {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const shownId = item?.id;
  // Right after the address changes to another item, the page still shows the item before it for a
  // render or two (its read is on the way): that is not a move, and following it would send the
  // person back where they came from.
  const previous = useRef<{ routeId: number; shownId: number | undefined }>({ routeId, shownId });
  const stale = useRef<{ routeId: number; shownId: number } | null>(null);
  if (previous.current.routeId !== routeId) {
    const before = previous.current.shownId;
    stale.current = before === undefined ? null : { routeId, shownId: before };
  }
  previous.current = { routeId, shownId };
  useEffect(() => {
    if (shownId === undefined || shownId === routeId) return;
    if (stale.current?.routeId === routeId && stale.current.shownId === shownId) return;
    const next = swappedPath(pathname, routeId, shownId);
    if (next) void navigate(`${next}${search}${hash}`, { replace: true });
  }, [shownId, routeId, pathname, search, hash, navigate]);
}

import { useEffect } from 'react';
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
  useEffect(() => {
    if (shownId === undefined || shownId === routeId) return;
    const next = swappedPath(pathname, routeId, shownId);
    if (next) void navigate(`${next}${search}${hash}`, { replace: true });
  }, [shownId, routeId, pathname, search, hash, navigate]);
}

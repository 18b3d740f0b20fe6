import { useEffect, useState } from 'react';
import type { RunningTimer } from './timerStore';

/** The page of the item a timer runs on. */
export const pageOf = (r: Pick<RunningTimer, 'itemId' | 'type'>) =>
  r.type === 'campaign'
    ? `/campaigns/${r.itemId}`
    : r.type === 'task'
      ? `/tasks/${r.itemId}`
      : `/todos/${r.itemId}`;

/** Milliseconds since `startedAt`, moving once a second; 0 while nothing runs. */
export function useElapsed(startedAt: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!startedAt) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [startedAt]);
  return startedAt ? now - Date.parse(startedAt) : 0;
}

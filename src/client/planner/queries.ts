/** Today and Upcoming, live from the device through the one door (data/store/agendaQueries.ts). */
import { useEffect, useState } from 'react';
import { type DayBucket, dayKey, UPCOMING_DAYS } from '../../shared/agenda';
import { type LiveQuery, type LocalItem, useLive, useShown } from '../data/store/live';

export type { DayBucket, LocalItem };

const todayQuery: LiveQuery<string, LocalItem[]> = (reads, today) => reads.todayItems(today);
const countsQuery: LiveQuery<string, { overdue: number; today: number }> = (reads, today) =>
  reads.todayCounts(today);
const upcomingQuery: LiveQuery<{ today: string; days: number }, DayBucket<LocalItem>[]> = (
  reads,
  { today, days },
) => reads.upcomingItems(today, days);

/**
 * Today on this device (YYYY-MM-DD), moving on at local midnight and when the page comes back into
 * view (a laptop woken the next morning): what is overdue changes with it.
 */
export function useToday(): string {
  const [today, setToday] = useState(() => dayKey(new Date()));
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-armed when the day moves on, so the next midnight is timed from the new day
  useEffect(() => {
    const check = () => setToday(dayKey(new Date()));
    const now = new Date();
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    const timer = setTimeout(check, midnight.getTime() - now.getTime() + 1_000);
    document.addEventListener('visibilitychange', check);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [today]);
  return today;
}

/** Today: my open items overdue or due today, overdue first, then by priority, then by due date. */
export function useTodayItems(today: string): LocalItem[] | undefined {
  return useShown(useLive(todayQuery, today));
}

/** Home's Today card: how many of my open items are overdue and how many due today. */
export function useTodayCounts(today: string): { overdue: number; today: number } | undefined {
  return useLive(countsQuery, today);
}

/** Upcoming: overdue (when any), then each of the next 14 days with its items. */
export function useUpcoming(today: string, days = UPCOMING_DAYS): DayBucket<LocalItem>[] | undefined {
  return useShown(useLive(upcomingQuery, { today, days }));
}

/** Today and Upcoming, live from the device through the one door (data/reads/agendaQueries.ts). */
import { useEffect, useState } from 'react';
import { dayKey, UPCOMING_DAYS } from '../../shared/agenda';
import { type LiveQuery, type LocalItem, useLive, useShown } from '../data/live';
import type { TodayPage, UpcomingGroup } from '../data/reads/agendaQueries';

export type { LocalItem, TodayPage, UpcomingGroup };

/** How many rows each of Today's groups shows: the first page, then more at each 'Show more'. */
export interface TodayLimits {
  overdue: number;
  today: number;
}

const todayQuery: LiveQuery<{ today: string; limits: TodayLimits }, TodayPage> = (reads, { today, limits }) =>
  reads.todayPage(today, limits);
const countsQuery: LiveQuery<string, { overdue: number; today: number }> = (reads, today) =>
  reads.todayCounts(today);
const upcomingQuery: LiveQuery<
  { today: string; days: number; limit: number; limits: Readonly<Record<string, number>> },
  UpcomingGroup[]
> = (reads, { today, days, limit, limits }) => reads.upcomingPage(today, days, limit, limits);

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

/**
 * Today: the first rows of my open items overdue and due today (overdue first, then by priority, then
 * by due date), as many of each as `limits` asks, with each group's count.
 */
export function useTodayPage(today: string, limits: TodayLimits): TodayPage | undefined {
  return useShown(useLive(todayQuery, { today, limits }));
}

/** Home's Today card: how many of my open items are overdue and how many due today. */
export function useTodayCounts(today: string): { overdue: number; today: number } | undefined {
  return useLive(countsQuery, today);
}

/**
 * Upcoming: overdue (when any), then each of the next 14 days, each group's first `limit` rows (or
 * `limits[key]`, once 'Show more' asked for more) with its count.
 */
export function useUpcoming(
  today: string,
  limit: number,
  limits: Readonly<Record<string, number>> = NO_LIMITS,
  days = UPCOMING_DAYS,
): UpcomingGroup[] | undefined {
  return useShown(useLive(upcomingQuery, { today, days, limit, limits }));
}

const NO_LIMITS: Readonly<Record<string, number>> = {};

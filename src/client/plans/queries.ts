/** Calendar and Timeline, live from the device through the one door (data/reads/calendarQueries.ts). */
import { type LiveQuery, type LocalItem, useLive, useShown } from '../data/live';
import type { TimelineGroup } from '../data/reads/calendarQueries';

export type { LocalItem, TimelineGroup };

const calendarQuery: LiveQuery<{ from: string; through: string }, LocalItem[]> = (reads, { from, through }) =>
  reads.calendarItems(from, through);
const timelineQuery: LiveQuery<number | null, TimelineGroup[]> = (reads, campaignId) =>
  reads.timelineGroups(campaignId);

/** My open items that can show on a day of [from, through] (due in it, or spanning or repeating into it). */
export function useCalendarItems(from: string, through: string): LocalItem[] | undefined {
  return useShown(useLive(calendarQuery, { from, through }));
}

/** The campaign `campaignId`'s tasks, or every campaign's (null), grouped by campaign. */
export function useTimelineGroups(campaignId: number | null): TimelineGroup[] | undefined {
  return useShown(useLive(timelineQuery, campaignId));
}

import type { ReportEntry } from '../../shared/timeReport';
import { type LiveQuery, useLive, useViewer } from '../data/live';
import type { ItemTime } from '../data/reads/itemPageReads';
import type { LocalTimeEntry } from '../data/store/types';

/** The viewer's running timer with its item's title, as the device holds it. */
export type RunningRead = { entry: LocalTimeEntry; title: string; type: 'campaign' | 'task' | 'todo' } | null;

const running: LiveQuery<number, RunningRead> = (reads, userId) => reads.runningTimer(userId);
const spent: LiveQuery<null, Map<number, number>> = (reads) => reads.spent();
const itemEntries: LiveQuery<number, LocalTimeEntry[]> = (reads, itemId) => reads.timeEntries(itemId);
const itemTimeRead: LiveQuery<number, ItemTime> = (reads, itemId) => reads.itemTime(itemId);
const report: LiveQuery<null, ReportEntry[]> = (reads) => reads.reportEntries();

/** The viewer's running timer, live (SYNC.md X10). */
export function useRunningRead(): RunningRead | undefined {
  const viewer = useViewer();
  return useLive(running, viewer.user.id);
}

/** Minutes spent per item, rolled up (X11), live. */
export function useSpentRead(): Map<number, number> | undefined {
  return useLive(spent, null);
}

/** An item's live entries on the device, newest first. */
export function useItemTimeEntries(itemId: number): LocalTimeEntry[] | undefined {
  return useLive(itemEntries, itemId);
}

/** An item's page's time: the entries on it and its descendants, and its estimate (X11, X14), live. */
export function useItemTime(itemId: number): ItemTime | undefined {
  return useLive(itemTimeRead, itemId);
}

/** Every live entry on the device, for the report. */
export function useReportEntries(): ReportEntry[] | undefined {
  return useLive(report, null);
}

export { useViewer };

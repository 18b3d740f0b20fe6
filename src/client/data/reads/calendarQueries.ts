import Dexie from 'dexie';
import { addDays } from '../../../shared/agenda';
import { PRIORITIES } from '../../../shared/planning';
import { AGENDA_INDEX, CALENDAR_INDEX, LIST_INDEX, type OutpostDb } from '../store/db';
import { resolveId } from '../store/idAliases';
import { SPAN_REACH, SPAN_UNBOUNDED } from '../store/listKeys';
import type { LocalItem, Viewer } from '../store/types';

/**
 * Calendar and Timeline from the device (ARCHITECTURE §5 'Calendar and Timeline'), offline and for
 * guests. The calendar reads a range of days by index, never every dated item: the rows due in it
 * (the agenda indexes, by due day) and the rows that span days or repeat and start on or before its
 * last day (the calendar indexes over `_sd`, listKeys.ts), since those can reach into it from later;
 * of the spans, per reach, only those that start late enough to end in it.
 */

const scopeOf = (viewer: Viewer) => (viewer.isGuest ? 'g' : 'a');

/** Open and live (the keys are kept only on such rows; the check stays for a row an older tab wrote). */
const open = (i: LocalItem) => i._deleted !== 1 && i.status !== 'completed';

/**
 * The viewer's open items (created by them, or assigned to them by someone else, as Today and Upcoming
 * read) that can show on a day of [from, through]: due in it, or spanning or repeating from before
 * its end. The caller places them (shared/calendar.ts occurrencesIn), which drops what ends before.
 */
export function calendarItems(
  db: OutpostDb,
  viewer: Viewer,
  from: string,
  through: string,
): Promise<LocalItem[]> {
  const scope = scopeOf(viewer);
  // A guest's items are all the guest's own: nobody assigns them.
  const owners = viewer.isGuest ? (['mine'] as const) : (['mine', 'assigned'] as const);
  const reads = owners.flatMap((owner) => [
    ...PRIORITIES.map((p) =>
      db.items
        .where(AGENDA_INDEX[owner])
        .between(
          [scope, viewer.userId, p, from, Dexie.minKey],
          [scope, viewer.userId, p, through, Dexie.maxKey],
        )
        .toArray(),
    ),
    ...SPAN_REACH.map((reach, i) =>
      db.items
        .where(CALENDAR_INDEX[owner])
        .between(
          [scope, viewer.userId, `${i} ${addDays(from, -reach)}`],
          [scope, viewer.userId, `${i} ${through}`],
          true,
          true,
        )
        .toArray(),
    ),
    db.items
      .where(CALENDAR_INDEX[owner])
      .between(
        [scope, viewer.userId, `${SPAN_UNBOUNDED} `],
        [scope, viewer.userId, `${SPAN_UNBOUNDED} ${through}`],
        true,
        true,
      )
      .toArray(),
  ]);
  return Promise.all(reads).then((lists) => {
    const byId = new Map<number, LocalItem>();
    for (const list of lists) for (const item of list) if (open(item)) byId.set(item.id, item);
    return [...byId.values()];
  });
}

/** One row group on a timeline: a campaign and its live tasks, or (campaign null) the tasks in none. */
export interface TimelineGroup {
  campaign: LocalItem | null;
  tasks: LocalItem[];
}

const live = (i: LocalItem) => i._deleted !== 1;

/** A campaign's live tasks on the device, oldest first (the children index, one range). */
function tasksOf(db: OutpostDb, scope: string, campaignId: number): Promise<LocalItem[]> {
  return db.items
    .where(LIST_INDEX.children)
    .between([campaignId, scope, Dexie.minKey], [campaignId, scope, Dexie.maxKey], true, true)
    .toArray()
    .then((rows) => rows.filter((r) => r.type === 'task' && live(r)));
}

/**
 * The timeline's groups: the campaign `campaignId` (when given) or every campaign the viewer has on
 * the device, oldest first, each with its live tasks, then the tasks in no campaign as a last group.
 * The page draws the dated ones as bars.
 */
export async function timelineGroups(
  db: OutpostDb,
  viewer: Viewer,
  campaignId: number | null,
): Promise<TimelineGroup[]> {
  const scope = scopeOf(viewer);
  if (campaignId !== null) {
    const id = campaignId >= 0 ? campaignId : await resolveId(db, campaignId);
    const campaign = await db.items.get(id);
    if (!campaign || !live(campaign) || campaign.type !== 'campaign' || campaign._scope !== scope) return [];
    return [{ campaign, tasks: await tasksOf(db, scope, id) }];
  }
  const ofType = (type: 'campaign' | 'task') =>
    db.items
      .where(LIST_INDEX.typeTab)
      .between([scope, type, Dexie.minKey], [scope, type, Dexie.maxKey], true, true)
      .toArray();
  const [campaignRows, allTasks] = await Promise.all([ofType('campaign'), ofType('task')]);
  const campaigns = campaignRows.filter(live);
  const tasks = await Promise.all(campaigns.map((c) => tasksOf(db, scope, c.id)));
  const groups: TimelineGroup[] = campaigns.map((campaign, i) => ({ campaign, tasks: tasks[i]! }));
  // A task may stand alone (the spec lets it): its dates belong on the plan as much as a campaign's.
  const loose = allTasks.filter((t) => live(t) && t.parent_id == null);
  if (loose.length > 0) groups.push({ campaign: null, tasks: loose });
  return groups;
}

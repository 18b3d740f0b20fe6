/**
 * Time tracking (ARCHITECTURE §4 'Start dates, estimates and time', §5 'Time tracking'). Time entries
 * are device data (SYNC.md X10): `time.start`, `time.stop`, `time.addManual`, `time.update` and
 * `time.remove` write the device at once, with their queue row in the same transaction, and push;
 * a guest's stay on the device. The report's CSV comes from the server for a signed-in user (every
 * entry they see) and is built on the device for a guest, under the same injection rule.
 */
import type { TimeEntryPatch } from '../../../shared/timeEntries';
import { timeEntryPatchSchema, timeNoteSchema } from '../../../shared/timeEntrySchemas';
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import type { QueueEntry, Viewer } from '../store/types';
import type { LazyEngine } from '../sync/lazyEngine';
import {
  addManualEntry,
  removeEntry,
  startTimer,
  stopTimer,
  updateEntry,
} from '../timeEntries/localTimeEntries';
import { defineCommands } from './map';

export interface TimeContext {
  api: ApiClient;
  db: OutpostDb;
  viewer: () => Viewer & { user: { id: number; name: string } };
  /** Resolves once the remembered account is restored, so an early start is never the guest's. */
  restored: () => Promise<void>;
  pushNow: LazyEngine['pushNow'];
  keepStorage: () => void;
}

/** Starts the pushes of a write's queue rows; a refusal is toasted by the push itself. */
function pushSoon(c: TimeContext, entries: readonly QueueEntry[]): void {
  for (const entry of entries) void c.pushNow(entry.id).catch(() => undefined);
}

/** The report's filters as the server's query string takes them. */
export interface TimeReportFilters {
  from?: string;
  to?: string;
  campaign_id?: number;
  user_id?: number;
}

export const commands = defineCommands<TimeContext>()({
  /** X2: starts the viewer's timer on an item; their running one ends at this instant. */
  'time.start': async (c, a: { itemId: number; uuid?: string; at?: number; note?: string }) => {
    await c.restored();
    const note = a.note === undefined ? undefined : timeNoteSchema.parse(a.note);
    const { entry, queued } = await startTimer(c.db, c.viewer(), {
      itemId: a.itemId,
      ...(a.uuid ? { uuid: a.uuid } : {}),
      ...(a.at !== undefined ? { at: a.at } : {}),
      ...(note ? { note } : {}),
    });
    c.keepStorage();
    pushSoon(c, queued);
    return entry;
  },
  /** X3: stops a running entry of the viewer's (at `at`, now without it); one already ended stays. */
  'time.stop': async (c, a: { uuid: string; at?: number }) => {
    await c.restored();
    const { entry, queued } = await stopTimer(c.db, c.viewer(), a.uuid, a.at);
    pushSoon(c, queued);
    return entry;
  },
  /** X1, X4: a finished entry added by hand; refused (TimeEntryProblem) when it overlaps another. */
  'time.addManual': async (
    c,
    a: { itemId: number; startedAt: string; endedAt: string; note?: string; uuid?: string },
  ) => {
    await c.restored();
    const note = timeNoteSchema.parse(a.note ?? '');
    const { entry, queued } = await addManualEntry(c.db, c.viewer(), { ...a, note });
    c.keepStorage();
    pushSoon(c, queued);
    return entry;
  },
  /** Edits an entry's start, end or note (its author's). */
  'time.update': async (c, a: { uuid: string; patch: TimeEntryPatch }) => {
    await c.restored();
    const patch = timeEntryPatchSchema.parse(a.patch) as TimeEntryPatch;
    const { entry, queued } = await updateEntry(c.db, c.viewer(), a.uuid, patch);
    pushSoon(c, queued);
    return entry;
  },
  /** Deletes an entry (its author, or the campaign's owner: the server judges). */
  'time.remove': async (c, uuid: string) => {
    await c.restored();
    const entry = await removeEntry(c.db, c.viewer(), uuid);
    pushSoon(c, entry ? [entry] : []);
  },
  /** X11's companion: a timer has run 8 hours; a system notification says so where allowed. */
  'time.alertLong': async (_c, a: { uuid: string; title: string; url: string }) => {
    const { showSystemNotification } = await import('../notifications/systemNotification');
    await showSystemNotification('Timer running for 8 hours', a.title, a.url, `timer-${a.uuid}`);
  },
  /** The server's report CSV of every entry the signed-in viewer sees, by the filters. */
  'time.serverCsv': async (c, filters: TimeReportFilters) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filters))
      if (value !== undefined && value !== '') query.set(key, String(value));
    const qs = query.toString();
    const { data } = await c.api.get<string>(`/time_entries.csv${qs ? `?${qs}` : ''}`);
    return data;
  },
});

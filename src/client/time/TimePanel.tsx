import { Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { formatMinutes, minutesOf, startProblem } from '../../shared/timeEntries';
import { useSend } from '../app/door';
import { Button, Field, IconButton, Input } from '../components/ui';
import type { LocalTimeEntry } from '../data/store/types';
import { timeErrorText } from './mutations';
import { useItemTime, useViewer } from './queries';
import { SpentBar, spentText } from './SpentMeta';
import { TimerButton } from './TimerButton';
import { useSpentOn } from './timerStore';

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const localTime = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
const dayOf = (iso: string) =>
  new Date(iso).toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric' });

interface Draft {
  day: string;
  start: string;
  end: string;
  note: string;
}

function draftOf(entry: LocalTimeEntry | null): Draft {
  if (!entry) {
    const now = new Date();
    const hourAgo = new Date(now.getTime() - 3600_000);
    return { day: localDay(hourAgo), start: localTime(hourAgo), end: localTime(now), note: '' };
  }
  const start = new Date(entry.started_at);
  const end = entry.ended_at ? new Date(entry.ended_at) : new Date();
  return { day: localDay(start), start: localTime(start), end: localTime(end), note: entry.note };
}

/** The instants of a draft: an end before the start is on the next day (an evening into the night). */
function spanOfDraft(d: Draft): { startedAt: string; endedAt: string } | null {
  const start = new Date(`${d.day}T${d.start}`);
  let end = new Date(`${d.day}T${d.end}`);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return null;
  if (end < start) end = new Date(end.getTime() + 24 * 3600_000);
  return { startedAt: start.toISOString(), endedAt: end.toISOString() };
}

/** Add or edit one entry by hand: day, start, end and note. */
function EntryForm({
  entry,
  onSave,
  onCancel,
}: {
  entry: LocalTimeEntry | null;
  onSave: (span: { startedAt: string; endedAt: string }, note: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(entry));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const span = spanOfDraft(draft);
    if (!span) {
      setError('Give a day, a start and an end.');
      return;
    }
    // X12: the server's rule, said here before anything is written or queued.
    const when = startProblem(span.startedAt);
    if (when) {
      setError(when);
      return;
    }
    setBusy(true);
    try {
      await onSave(span, draft.note.trim());
    } catch (caught) {
      setError(timeErrorText(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="grid grid-cols-2 gap-3 rounded-lg border border-zinc-200 p-3 sm:grid-cols-4 dark:border-zinc-800"
      aria-label={entry ? 'Edit time entry' : 'Add time entry'}
    >
      <Field label="Day" className="col-span-2 sm:col-span-2">
        {(p) => <Input {...p} type="date" required value={draft.day} onChange={set('day')} />}
      </Field>
      <Field label="From">
        {(p) => <Input {...p} type="time" required value={draft.start} onChange={set('start')} />}
      </Field>
      <Field label="To">
        {(p) => <Input {...p} type="time" required value={draft.end} onChange={set('end')} />}
      </Field>
      <Field label="Note" className="col-span-2 sm:col-span-4" error={error ?? undefined}>
        {(p) => (
          <Input
            {...p}
            maxLength={500}
            value={draft.note}
            onChange={set('note')}
            placeholder="What was done (optional)"
          />
        )}
      </Field>
      <div className="col-span-2 flex justify-end gap-2 sm:col-span-4">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={busy}>
          {entry ? 'Save entry' : 'Add entry'}
        </Button>
      </div>
    </form>
  );
}

/**
 * An item's time (§5 'Time tracking'): Start/Stop, 'spent / estimate' with its bar (rolled up, X11;
 * a task's or campaign's estimate from its children when it has none, X14), and the entries that
 * spent time sums: the item's own and, on a task or campaign, those of what lies under it, each
 * naming its item. Their author adds them by hand, edits and deletes them.
 */
export function TimePanel({
  item,
  readOnly,
}: {
  item: { id: number; title: string; type: 'campaign' | 'task' | 'todo'; estimate_minutes?: number | null };
  readOnly: boolean;
}) {
  const time = useItemTime(item.id);
  const entries = time?.entries;
  const spent = useSpentOn(item.id);
  const viewer = useViewer();
  const send = useSend();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const estimate = time ? time.estimate : (item.estimate_minutes ?? null);
  const over = !!estimate && spent > estimate;
  const own = (e: LocalTimeEntry) => e.user_id === viewer.user.id;
  return (
    <section aria-labelledby="time-heading" className="mb-6 flex flex-col gap-3" data-time-panel>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="time-heading" className="text-base font-semibold">
          Time
        </h2>
        <span
          className={`text-sm tabular-nums ${over ? 'text-amber-700 dark:text-amber-400' : 'text-zinc-600 dark:text-zinc-400'}`}
          data-page-spent
        >
          <span className="sr-only">Spent </span>
          {spentText(spent, estimate)}
          {over ? <span className="sr-only"> (over the estimate)</span> : null}
        </span>
        <SpentBar spent={spent} estimate={estimate} className="w-24" />
        {readOnly ? null : (
          <div className="ml-auto flex gap-2">
            {item.type === 'campaign' ? null : (
              <TimerButton
                item={item}
                showLabel
                className="inline-flex h-8 items-center gap-1.5 rounded-md border border-zinc-200 px-3 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-900 [&_svg]:size-4"
              />
            )}
            <Button
              variant="outline"
              size="sm"
              onClick={() => setEditing('new')}
              disabled={editing === 'new'}
            >
              <Plus aria-hidden />
              Add time
            </Button>
          </div>
        )}
      </div>
      {editing === 'new' ? (
        <EntryForm
          entry={null}
          onCancel={() => setEditing(null)}
          onSave={async (span, note) => {
            await send('time.addManual', { itemId: item.id, ...span, note });
            setEditing(null);
          }}
        />
      ) : null}
      {entries && entries.length > 0 ? (
        <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {entries.map((entry) =>
            editing === entry.uuid ? (
              <li key={entry.uuid} className="p-2">
                <EntryForm
                  entry={entry}
                  onCancel={() => setEditing(null)}
                  onSave={async (span, note) => {
                    await send('time.update', {
                      uuid: entry.uuid,
                      patch: {
                        started_at: span.startedAt,
                        ...(entry.ended_at === null ? {} : { ended_at: span.endedAt }),
                        note,
                      },
                    });
                    setEditing(null);
                  }}
                />
              </li>
            ) : (
              <li key={entry.uuid} className="flex items-center gap-3 px-3 py-2 text-sm" data-time-entry>
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap gap-x-2">
                    <span className="font-medium">{dayOf(entry.started_at)}</span>
                    <span className="text-zinc-600 tabular-nums dark:text-zinc-400">
                      {timeOf(entry.started_at)}–{entry.ended_at ? timeOf(entry.ended_at) : 'now'}
                    </span>
                    <span className="tabular-nums">
                      {entry.ended_at
                        ? formatMinutes(minutesOf(entry.started_at, entry.ended_at))
                        : 'Running'}
                    </span>
                    {entry._syncStatus === 'pending' ? (
                      <span className="text-xs text-zinc-500 dark:text-zinc-400">Pending sync</span>
                    ) : null}
                  </div>
                  <div className="truncate text-xs text-zinc-500 dark:text-zinc-400">
                    {entry.on ? (
                      <span data-time-entry-on>
                        <span className="sr-only">On </span>
                        {entry.on.title} ·{' '}
                      </span>
                    ) : null}
                    {entry.user_name}
                    {entry.note ? ` · ${entry.note}` : ''}
                  </div>
                </div>
                {readOnly || !own(entry) ? null : (
                  <>
                    <IconButton
                      label={`Edit time entry of ${dayOf(entry.started_at)} ${timeOf(entry.started_at)}`}
                      icon={<Pencil />}
                      onClick={() => setEditing(entry.uuid)}
                    />
                    <IconButton
                      label={`Delete time entry of ${dayOf(entry.started_at)} ${timeOf(entry.started_at)}`}
                      icon={<Trash2 />}
                      onClick={() => void send('time.remove', entry.uuid)}
                    />
                  </>
                )}
              </li>
            ),
          )}
        </ul>
      ) : entries ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          {item.type === 'todo'
            ? 'No time tracked yet.'
            : `No time tracked on this ${item.type} or anything in it yet.`}
        </p>
      ) : null}
    </section>
  );
}

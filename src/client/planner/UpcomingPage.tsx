import { Plus } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { dayHeading, dayLabel } from '../../shared/agenda';
import { TITLE_MAX_LENGTH } from '../../shared/item';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { lazyModule } from '../components/ui/lazyMenu';
import { ListLoading, PageColumn, PageHeader } from '../components/ui/PageParts';
import { useTitleReader } from '../items/useTitleReader';
import { AgendaList } from './AgendaList';
import { AgendaSection } from './AgendaSection';
import { shareRows, useFirstDrawRows } from './firstDraw';
import { useAddOnDay } from './mutations';
import { useToday, useUpcoming } from './queries';

/**
 * Rows a day shows before its 'Show more': fifteen groups of a busy fortnight would otherwise render
 * hundreds of rows before the first one shows.
 */
const DAY_PAGE = 8;

/**
 * /upcoming: the next 14 days from the device (offline and as a guest too), one heading per day,
 * overdue on top; every day, empty or not, takes a todo of its own ('Add to Tomorrow').
 */
export default function UpcomingPage() {
  const today = useToday();
  // What 'Show more' has asked for, per group; the rest read DAY_PAGE rows.
  const [limits, setLimits] = useState<Readonly<Record<string, number>>>({});
  const buckets = useUpcoming(today, DAY_PAGE, limits);
  const more = (key: string) => () => setLimits((l) => ({ ...l, [key]: (l[key] ?? DAY_PAGE) + DAY_PAGE }));
  // A screenful of rows first, the rest a frame later (firstDraw.ts); groups below it wait for that.
  const firstDraw = useFirstDrawRows(buckets !== undefined);
  const drawn = shareRows(buckets?.map((b) => b.items.length) ?? [], firstDraw);
  return (
    <PageColumn>
      <PageHeader title="Upcoming" subtitle="The next 14 days, and anything overdue" />
      {buckets === undefined ? (
        <ListLoading label="Loading upcoming items..." rows={4} />
      ) : (
        <div className="flex flex-col gap-4">
          {buckets.map((b, i) => {
            const rows = drawn[i];
            if (rows === null || rows === undefined) return null;
            if (b.day === null) {
              return (
                <AgendaSection key={b.key} id="overdue" heading="Overdue" tone="late" count={b.count}>
                  <AgendaList
                    items={b.items}
                    total={b.count}
                    onMore={more(b.key)}
                    label="Overdue"
                    today={today}
                    drawn={rows}
                  />
                </AgendaSection>
              );
            }
            const heading = dayHeading(b.day, today);
            const named = heading === 'Today' || heading === 'Tomorrow';
            return (
              <DayGroup
                key={b.key}
                day={b.day}
                heading={heading}
                sub={named ? dayLabel(b.day) : undefined}
                items={b.items}
                total={b.count}
                onMore={more(b.key)}
                today={today}
                drawn={rows}
              />
            );
          })}
        </div>
      )}
    </PageColumn>
  );
}

function DayGroup({
  day,
  heading,
  sub,
  items,
  total,
  onMore,
  today,
  drawn,
}: {
  day: string;
  heading: string;
  sub: string | undefined;
  items: Parameters<typeof AgendaList>[0]['items'];
  total: number;
  onMore: () => void;
  today: string;
  /** How many rows to draw now (firstDraw.ts). */
  drawn: number;
}) {
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    setAdding(false);
    requestAnimationFrame(() => addButton.current?.focus());
  };
  return (
    <AgendaSection
      id={day}
      heading={heading}
      sub={sub}
      count={total}
      empty={total === 0 && !adding ? 'Nothing planned' : undefined}
      action={
        adding ? null : (
          <Button
            ref={addButton}
            variant="ghost"
            size="sm"
            onClick={() => setAdding(true)}
            aria-label={`Add to ${heading}`}
            className="text-zinc-600 dark:text-zinc-300"
          >
            <Plus className="size-4" aria-hidden />
            Add
          </Button>
        )
      }
    >
      {adding ? <AddToDay day={day} heading={heading} onDone={close} /> : null}
      {total > 0 ? (
        <AgendaList
          items={items}
          total={total}
          onMore={onMore}
          label={sub ? `${heading}, ${sub}` : heading}
          today={today}
          drawn={drawn}
        />
      ) : null}
    </AgendaSection>
  );
}

// The quick-add reader and its chips (with chrono-node), loaded when a day's field first takes focus.
const quickAddParts = lazyModule(() => import('../items/quickAddLoader').then((m) => m.loadQuickAddParts()));

/**
 * The day's quick add: a todo due that day (or on the day its words name: 'friday 5pm' reads as
 * everywhere else, ARCHITECTURE §5), saved through the same create as every quick-add card
 * (offline, undoable, 'Item created'). It stays open for the next one; Escape or Done closes it.
 */
function AddToDay({ day, heading, onDone }: { day: string; heading: string; onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const add = useAddOnDay();
  const reader = useTitleReader(quickAddParts, title, () => void submit());
  const { parts, reading, load: loadParts } = reader;
  useEffect(() => input.current?.focus(), []);
  const blocked = title.trim() === '' || (reading !== null && !reading.savable);
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (blocked || busy || reader.mustWait()) return;
    setBusy(true);
    const ok = await add(title, day, reading?.apply);
    setBusy(false);
    if (ok) setTitle('');
    input.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onDone();
  };
  return (
    <form
      onSubmit={submit}
      onKeyDown={onKeyDown}
      aria-label={`Add to ${heading}`}
      className="flex items-start gap-2 rounded-xl border border-zinc-200 bg-white p-2 dark:border-zinc-800 dark:bg-zinc-900/40"
    >
      <div className="relative flex min-w-0 flex-1 flex-col gap-2">
        <Input
          ref={input}
          value={title}
          onChange={(e) => {
            setTitle(e.target.value);
            loadParts();
          }}
          onFocus={loadParts}
          maxLength={TITLE_MAX_LENGTH}
          placeholder={`Add a todo for ${heading === 'Today' || heading === 'Tomorrow' ? heading.toLowerCase() : heading}…`}
          aria-label={`Todo title, due ${heading}`}
          className="h-9 min-w-0"
        />
        {parts ? (
          <parts.TitleReading
            text={title}
            type="todo"
            assignee
            onReading={reader.onReading}
            inputRef={input}
            // Over the field (its height, border and padding), so the tint lies on the typed words.
            tintClassName="top-0 h-9 border border-transparent px-3 text-base md:text-sm"
            className=""
          />
        ) : null}
      </div>
      <Button type="submit" size="sm" disabled={blocked || busy || reader.waiting}>
        Add
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onDone}>
        Done
      </Button>
    </form>
  );
}

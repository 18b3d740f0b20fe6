import { Square, Timer } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatElapsed, TIMER_ALERT_MS } from '../../shared/timeEntries';
import { useSend, useToast } from '../app/door';
import { cn, focusRing } from '../components/ui/cn';
import { useTimer } from './mutations';
import { useRunningRead, useSpentRead } from './queries';
import { type RunningTimer, timerStore, useRunningTimer } from './timerStore';

const pageOf = (r: Pick<RunningTimer, 'itemId' | 'type'>) =>
  r.type === 'campaign'
    ? `/campaigns/${r.itemId}`
    : r.type === 'task'
      ? `/tasks/${r.itemId}`
      : `/todos/${r.itemId}`;

/** Milliseconds since `startedAt`, moving once a second while `on`. */
function useElapsed(startedAt: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!startedAt) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [startedAt]);
  return startedAt ? now - Date.parse(startedAt) : 0;
}

/** Keeps the timer store in step with the device: one live read for every row and page. */
function useFeedTimerStore(): void {
  const running = useRunningRead();
  const spent = useSpentRead();
  useEffect(() => {
    if (running === undefined) return;
    timerStore.setState({
      running: running
        ? {
            uuid: running.entry.uuid,
            itemId: running.entry.item_id,
            title: running.title,
            type: running.type,
            startedAt: running.entry.started_at,
          }
        : null,
    });
  }, [running]);
  useEffect(() => {
    if (spent) timerStore.setState({ spent });
  }, [spent]);
}

/** The tab's title while a timer runs: '▶ 0:12:05 · Title'; the page's own title back after. */
function useTabTitle(text: string | null): void {
  const original = useRef<string | null>(null);
  useEffect(() => {
    if (text === null) return;
    original.current ??= document.title;
    document.title = text;
  }, [text]);
  useEffect(() => {
    if (text !== null || original.current === null) return;
    document.title = original.current;
    original.current = null;
  }, [text]);
}

/** Timers already told about running 8 hours (this page's life; the notification's tag dedupes across). */
const alerted = new Set<string>();

/**
 * Feeds the timer store from the device (one live read for every row and page) and, while a timer
 * runs, keeps the tab title on it ('▶ 0:12:05 · Title') and after 8 hours tells the person once, by a
 * toast and a system notification where allowed. Mounted once, in the header.
 */
export function TimerFeed() {
  useFeedTimerStore();
  const running = useRunningTimer();
  const elapsed = useElapsed(running?.startedAt ?? null);
  const toast = useToast();
  const send = useSend();
  useTabTitle(running ? `▶ ${formatElapsed(elapsed)} · ${running.title}` : null);
  useEffect(() => {
    if (!running || elapsed < TIMER_ALERT_MS || alerted.has(running.uuid)) return;
    alerted.add(running.uuid);
    toast({ title: 'Timer running for 8 hours', description: `“${running.title}” is still being timed.` });
    void send('time.alertLong', { uuid: running.uuid, title: running.title, url: pageOf(running) }).catch(
      () => undefined,
    );
  }, [running, elapsed, toast, send]);
  return null;
}

/** The running timer in the header on every screen (§5 'Time tracking'): its item, elapsed time and Stop. */
export function TimeWatch({ compact = false }: { compact?: boolean }) {
  const running = useRunningTimer();
  const clock = formatElapsed(useElapsed(running?.startedAt ?? null));
  const { stop } = useTimer();
  if (!running) return null;
  return (
    <div
      className="flex h-9 min-w-0 shrink items-center rounded-lg border border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100"
      data-running-timer
    >
      <Link
        to={pageOf(running)}
        className={cn('flex min-w-0 items-center gap-1.5 rounded-l-lg py-1 pr-1 pl-2 text-sm', focusRing)}
        aria-label={`Timer running on ${running.title}: ${clock}. Open it`}
      >
        <Timer className="size-4 shrink-0 motion-safe:animate-pulse" aria-hidden />
        <span className="font-mono tabular-nums" aria-hidden>
          {clock}
        </span>
        {compact ? null : (
          <span className="hidden max-w-40 truncate 2xl:inline" aria-hidden>
            {running.title}
          </span>
        )}
      </Link>
      <button
        type="button"
        onClick={() => void stop(running.uuid)}
        className={cn(
          'flex h-full items-center rounded-r-lg border-l border-emerald-200 px-2 hover:bg-emerald-100 dark:border-emerald-900 dark:hover:bg-emerald-900/60',
          focusRing,
        )}
        aria-label={`Stop timer on ${running.title}`}
        title="Stop timer"
      >
        <Square className="size-3.5 fill-current" aria-hidden />
      </button>
    </div>
  );
}

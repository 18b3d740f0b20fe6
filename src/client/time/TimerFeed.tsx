/**
 * What keeps the timer store in step with the device, loaded with the data layer (Header.tsx mounts
 * it once the door has its client): its live reads would otherwise put the whole data layer in the
 * first screen's chunk.
 */
import { useEffect, useRef } from 'react';
import { formatElapsed, TIMER_ALERT_MS } from '../../shared/timerClock';
import { useSend, useToast } from '../app/door';
import { pageOf, useElapsed } from './elapsed';
import { useRunningRead, useSpentRead } from './queries';
import { timerStore, useRunningTimer } from './timerStore';

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

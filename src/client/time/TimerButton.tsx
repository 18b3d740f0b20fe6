import { Play, Square } from 'lucide-react';
import { cn } from '../components/ui/cn';
import { useTimer } from './mutations';
import { useRunningOn } from './timerStore';

/**
 * Start or stop the viewer's timer on an item (§5 'Time tracking'): starting ends the one running
 * elsewhere at that instant (SYNC.md X2, X10). Its name says what it does and on what.
 */
export function TimerButton({
  item,
  className,
  idleClassName,
  runningClassName,
  showLabel = false,
}: {
  item: { id: number; title: string };
  className?: string;
  /** Classes while no timer runs here (a row shows the button on hover or focus only). */
  idleClassName?: string;
  /** Classes while this item's timer runs (a row keeps the button shown then). */
  runningClassName?: string;
  showLabel?: boolean;
}) {
  const running = useRunningOn(item.id);
  const { start, stop } = useTimer();
  const label = running ? `Stop timer on ${item.title}` : `Start timer on ${item.title}`;
  return (
    <button
      type="button"
      className={cn(
        className,
        running && 'text-emerald-700 dark:text-emerald-300',
        running ? runningClassName : idleClassName,
      )}
      aria-label={showLabel ? undefined : label}
      title={running ? 'Stop timer' : 'Start timer'}
      data-timer-button={running ? 'running' : 'idle'}
      onClick={() => void (running ? stop(running.uuid) : start(item.id))}
    >
      {running ? <Square className="fill-current" aria-hidden /> : <Play aria-hidden />}
      {showLabel ? <span>{running ? 'Stop timer' : 'Start timer'}</span> : null}
    </button>
  );
}

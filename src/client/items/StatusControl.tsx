import { CheckCircle2, Circle, CircleDashed, CircleDot } from 'lucide-react';
import type { ItemStatus, ItemType } from '../../shared/item';
import { statusLabel } from '../../shared/statusLabel';
import { cn, focusRing } from '../components/ui/cn';

/** The next status a card's control moves to (ARCHITECTURE §5): Start, Complete, Reopen. */
export function nextStatus(type: ItemType, status: ItemStatus): ItemStatus {
  // The spec: a todo's icon toggles pending ↔ completed, skipping in_progress.
  if (type === 'todo') return status === 'completed' ? 'pending' : 'completed';
  if (status === 'pending') return 'in_progress';
  if (status === 'in_progress') return 'completed';
  return 'pending';
}

export function statusActionLabel(type: ItemType, status: ItemStatus): 'Start' | 'Complete' | 'Reopen' {
  const next = nextStatus(type, status);
  if (next === 'in_progress') return 'Start';
  if (next === 'completed') return 'Complete';
  return 'Reopen';
}

export interface StatusControlProps {
  type: ItemType;
  status: ItemStatus;
  title: string;
  onChange: (next: ItemStatus) => void;
  disabled?: boolean;
}

/**
 * The round control at the start of every row. Its icon shows the state (empty, dashed/started, done);
 * its label says what a click does, so screen readers and the tooltip read 'Start', 'Complete' or 'Reopen'.
 */
export function StatusControl({ type, status, title, onChange, disabled }: StatusControlProps) {
  const action = statusActionLabel(type, status);
  const label = type === 'todo' ? (status === 'completed' ? 'Mark as not done' : 'Mark as done') : action;
  const Icon =
    status === 'completed'
      ? CheckCircle2
      : status === 'in_progress'
        ? CircleDot
        : type === 'todo'
          ? Circle
          : CircleDashed;
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={() => onChange(nextStatus(type, status))}
      aria-label={`${label}: ${title}`}
      // The tooltip says the status in words, then what a click does ('In progress · Complete').
      title={`${statusLabel(status)} · ${label}`}
      aria-pressed={type === 'todo' ? status === 'completed' : undefined}
      className={cn(
        'relative inline-flex size-8 shrink-0 items-center justify-center rounded-full transition-colors duration-150 motion-reduce:transition-none disabled:opacity-50',
        // A 44 px touch target on phones without making the row taller.
        'before:absolute before:-inset-1.5 before:content-[""]',
        status === 'completed'
          ? 'text-green-600 hover:text-green-700 dark:text-green-400 dark:hover:text-green-300'
          : status === 'in_progress'
            ? 'text-indigo-600 hover:text-indigo-700 dark:text-indigo-400 dark:hover:text-indigo-300'
            : 'text-zinc-400 hover:text-zinc-700 dark:text-zinc-500 dark:hover:text-zinc-200',
        focusRing,
      )}
    >
      <Icon className="size-5" aria-hidden strokeWidth={status === 'completed' ? 2.25 : 2} />
    </button>
  );
}

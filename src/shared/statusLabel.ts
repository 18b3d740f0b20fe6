import type { ItemStatus } from './item';

/** Statuses in words, as a person reads them: 'Pending', 'In progress', 'Completed'. */
export const STATUS_LABELS: Record<ItemStatus, string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed',
};

/**
 * The one way a status is shown: the known ones by their word; anything else (a value from a newer
 * server) with underscores replaced by spaces and the first letter capitalised.
 */
export function statusLabel(status: ItemStatus | string | null | undefined): string {
  if (!status) return '';
  const known = (STATUS_LABELS as Record<string, string>)[status];
  if (known) return known;
  const words = status.replace(/_/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

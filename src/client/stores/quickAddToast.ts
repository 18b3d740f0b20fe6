import type { ItemType } from '../../shared/item';
import type { ToastInput, ToastStore } from './toastStore';

/** Quick-adds this close together fold into the one toast still on screen. */
export const QUICK_ADD_WINDOW_MS = 4000;
export const QUICK_ADD_TOAST_KEY = 'quick-add-created';

export interface CreatedBatch {
  count: number;
  types: ItemType[];
  /** When the last item of the batch was created (ms). */
  at: number;
}

/** The batch after one more quick-add: a new one when there is none or the last was too long ago. */
export function foldCreated(
  previous: CreatedBatch | null,
  type: ItemType,
  now: number,
  windowMs = QUICK_ADD_WINDOW_MS,
): CreatedBatch {
  if (!previous || now - previous.at > windowMs || now < previous.at)
    return { count: 1, types: [type], at: now };
  return {
    count: previous.count + 1,
    types: previous.types.includes(type) ? previous.types : [...previous.types, type],
    at: now,
  };
}

/** One: the spec's 'Item created'; more: '3 todos created' (or '3 items created' when types mix). */
export function createdToast(batch: CreatedBatch): ToastInput {
  const [only] = batch.types;
  if (batch.count === 1 && only) {
    return { title: 'Item created', description: `Your ${only} has been created successfully.` };
  }
  const noun = batch.types.length === 1 && only ? `${only}s` : 'items';
  return {
    title: `${batch.count} ${noun} created`,
    description: `Your ${noun} have been created successfully.`,
  };
}

const batches = new WeakMap<ToastStore, CreatedBatch>();

/**
 * Says a quick-add created an item: while the last quick-add's toast is still queued and within the
 * window, that toast is updated in place ('2 todos created', '3 todos created'); otherwise a new one.
 */
export function announceCreated(
  store: ToastStore,
  type: ItemType,
  now = Date.now(),
  action?: ToastInput['action'],
): string {
  const showing = store.getState().queue.some((t) => t.key === QUICK_ADD_TOAST_KEY);
  const batch = foldCreated(showing ? (batches.get(store) ?? null) : null, type, now);
  batches.set(store, batch);
  // The Undo takes back the newest create; a second press of Ctrl/Cmd+Z walks further back.
  return store
    .getState()
    .push({ ...createdToast(batch), key: QUICK_ADD_TOAST_KEY, ...(action ? { action } : {}) });
}

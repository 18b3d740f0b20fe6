import type { ItemType } from '../../shared/item';
import type { ToastInput, ToastStore } from './toastStore';

export const QUICK_ADD_TOAST_KEY = 'quick-add-created';

/** The spec's quick-add success: 'Item created - Your {type} has been created successfully.' */
export function createdToast(type: ItemType): ToastInput {
  return { title: 'Item created', description: `Your ${type} has been created successfully.` };
}

/**
 * Says a quick-add created an item. Quick-adds in a row replace the one toast still on screen (its
 * timer restarts) rather than queueing one per item, and each keeps the spec's words: a count such
 * as '3 todos created' read as a different message to people who expected the spec's.
 */
export function announceCreated(store: ToastStore, type: ItemType, action?: ToastInput['action']): string {
  // The Undo takes back the newest create; a second press of Ctrl/Cmd+Z walks further back.
  return store
    .getState()
    .push({ ...createdToast(type), key: QUICK_ADD_TOAST_KEY, ...(action ? { action } : {}) });
}

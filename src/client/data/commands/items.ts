/** Item writes: each resolves once the change is stored on the device (and queued). */
import type { ItemStatus } from '../../../shared/item';
import type { ItemCreateInput, ItemPatchInput } from '../../../shared/schemas';
import { defineCommands } from './map';

/** Writes sharing an undo `group` are undone together (one form's save). */
type UndoGroup = { group: string };

export const commands = defineCommands({
  'items.create': async (c, payload: ItemCreateInput) => {
    const created = await (await c.writer()).create(payload);
    c.storage.keep();
    return created;
  },
  /** Resolves with the item as stored after the write (and its immediate send, when there was one). */
  'items.update': async (c, a: { id: number; patch: ItemPatchInput; undo?: UndoGroup }) =>
    (await c.writer()).update(a.id, a.patch, a.undo),
  'items.setStatus': async (c, a: { id: number; status: ItemStatus }) => {
    await (await c.writer()).changeStatus(a.id, a.status);
  },
  'items.assign': async (c, a: { id: number; userId: number; undo?: UndoGroup }) => {
    await (await c.writer()).assign(a.id, a.userId, a.undo);
  },
  'items.remove': async (c, a: { id: number }) => {
    await (await c.writer()).remove(a.id);
  },
});

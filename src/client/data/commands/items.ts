/** Item writes: each resolves once the change is stored on the device (and queued). */
import type { ItemStatus, ItemType } from '../../../shared/item';
import type { ItemCreateInput, ItemPatchInput } from '../../../shared/schemas';
import type { CommandContext } from './map';
import { defineCommands } from './map';

/** Writes sharing an undo `group` are undone together (one form's save). */
type UndoGroup = { group: string };

/** A parent a completion completed too (its last open item), for the toast to name (P13). */
export interface CompletedWith {
  type: ItemType;
  title: string;
}

/** The parent and grandparent of `id` as stored now. */
async function ancestorsOf(c: CommandContext, id: number) {
  const out: { id: number; type: ItemType; title: string; status: ItemStatus }[] = [];
  let current = await c.db.items.get(id);
  for (let depth = 0; depth < 2 && current?.parent_id != null; depth++) {
    current = await c.db.items.get(current.parent_id);
    if (current)
      out.push({ id: current.id, type: current.type, title: current.title, status: current.status });
  }
  return out;
}

export const commands = defineCommands({
  'items.create': async (c, payload: ItemCreateInput) => {
    const created = await (await c.writer()).create(payload);
    c.storage.keep();
    return created;
  },
  /** Resolves with the item as stored after the write (and its immediate send, when there was one). */
  'items.update': async (c, a: { id: number; patch: ItemPatchInput; undo?: UndoGroup }) =>
    (await c.writer()).update(a.id, a.patch, a.undo),
  /** Resolves with the parents the change completed too, by roll-up (none unless it completes). */
  'items.setStatus': async (
    c,
    a: { id: number; status: ItemStatus; undo?: UndoGroup },
  ): Promise<{ completedWith: CompletedWith[] }> => {
    const before = a.status === 'completed' ? await ancestorsOf(c, a.id) : [];
    await (await c.writer()).changeStatus(a.id, a.status, a.undo);
    const open = before.filter((p) => p.status !== 'completed');
    if (open.length === 0) return { completedWith: [] };
    const after = await c.db.items.bulkGet(open.map((p) => p.id));
    return {
      completedWith: open
        .filter((_, i) => after[i]?.status === 'completed')
        .map(({ type, title }) => ({ type, title })),
    };
  },
  'items.assign': async (c, a: { id: number; userId: number; undo?: UndoGroup }) => {
    await (await c.writer()).assign(a.id, a.userId, a.undo);
  },
  'items.remove': async (c, a: { id: number }) => {
    await (await c.writer()).remove(a.id);
  },
});

/** Item writes: each resolves once the change is stored on the device (and queued). */
import type { ItemStatus, ItemType } from '../../../shared/item';
import type { ItemCreateInput, ItemPatchInput } from '../../../shared/schemas';
import type { ItemsRepository } from '../items/itemsRepository';
import type { OutpostDb } from '../store/db';
import { defineCommands } from './map';

/** What item writes use: the repository's writes, the stored parents, and the storage keeper. */
export interface ItemsContext {
  /** The repository's writes, loaded on the first one, once the remembered account is restored. */
  repository: Pick<ItemsRepository, 'create' | 'update' | 'changeStatus' | 'assign' | 'remove'>;
  db: OutpostDb;
  /** Asks the browser to keep the device's data (there is something to keep now). */
  keepStorage: () => void;
}

/** Writes sharing an undo `group` are undone together (one form's save). */
type UndoGroup = { group: string };

/** A parent a completion completed too (its last open item), for the toast to name (P13). */
export interface CompletedWith {
  type: ItemType;
  title: string;
}

/** The parent and grandparent of `id` as stored now. */
async function ancestorsOf(c: ItemsContext, id: number) {
  const out: { id: number; type: ItemType; title: string; status: ItemStatus }[] = [];
  let current = await c.db.items.get(id);
  for (let depth = 0; depth < 2 && current?.parent_id != null; depth++) {
    current = await c.db.items.get(current.parent_id);
    if (current)
      out.push({ id: current.id, type: current.type, title: current.title, status: current.status });
  }
  return out;
}

export const commands = defineCommands<ItemsContext>()({
  'items.create': async (c, payload: ItemCreateInput) => {
    const created = await c.repository.create(payload);
    c.keepStorage();
    return created;
  },
  /** Resolves with the item as stored after the write (and its immediate send, when there was one). */
  'items.update': async (c, a: { id: number; patch: ItemPatchInput; undo?: UndoGroup }) =>
    c.repository.update(a.id, a.patch, a.undo),
  /** Resolves with the parents the change completed too, by roll-up (none unless it completes). */
  'items.setStatus': async (
    c,
    a: { id: number; status: ItemStatus; undo?: UndoGroup },
  ): Promise<{ completedWith: CompletedWith[] }> => {
    const before = a.status === 'completed' ? await ancestorsOf(c, a.id) : [];
    await c.repository.changeStatus(a.id, a.status, a.undo);
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
    await c.repository.assign(a.id, a.userId, a.undo);
  },
  'items.remove': async (c, a: { id: number }) => {
    await c.repository.remove(a.id);
  },
});

import { fromServer } from '../../src/client/data/store/localItems';
import type { LocalItem } from '../../src/client/data/store/types';
import type { Item } from '../../src/shared/item';

const user = { id: 1, name: 'U', phone: '+15550000001', created_at: '2026-01-01', updated_at: '2026-01-01' };

/** A todo of user 1 as the server sends it, created at `second` (id % 60); `extra` overrides. */
export function serverItem(id: number, title: string, extra: Partial<Item> = {}, second = id % 60): Item {
  const at = `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;
  return {
    id,
    uuid: null,
    title,
    description: null,
    type: 'todo',
    status: 'pending',
    user_id: 1,
    assigned_to: null,
    parent_id: null,
    due_date: null,
    end_date: null,
    created_at: at,
    updated_at: at,
    completed_at: null,
    deleted_at: null,
    version: 1,
    created_by: user,
    user,
    assignedUser: null,
    parent: null,
    children_count: 0,
    completed_count: 0,
    ...extra,
  } as unknown as Item;
}

/** A synced todo of user 1 as the device stores it, created at `second` (id % 60); `extra` overrides. */
export function localItem(
  id: number,
  title: string,
  extra: Partial<LocalItem> = {},
  second = id % 60,
): LocalItem {
  return { ...fromServer(serverItem(id, title, {}, second)), ...extra };
}

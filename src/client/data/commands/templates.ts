/**
 * Templates on the device (ARCHITECTURE §4 'Templates'). The device keeps them in their store: the
 * sync pull carries every change (SYNC.md L13, L14), and a fetch of the list (GET /api/templates)
 * replaces it whole, so 'New from template' works offline. Saving asks the server (the snapshot is
 * its). Creating from one is the device's: the shared instantiateEntries with a fresh request uuid,
 * stored as one write (../items/templateWrites.ts) whose creates go up through the queue, so the
 * server ends up with the same uuids.
 */
import type { UserSummary } from '../../../shared/item';
import {
  instantiateEntries,
  type Template,
  type TemplateKind,
  type TemplateTree,
} from '../../../shared/templates';
import { createTree } from '../items/templateWrites';
import { type ApiClient, isNetworkError } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';
import type { LazyEngine } from '../sync/lazyEngine';
import { defineCommands } from './map';

/** What templates use: the server, the device's database and viewer, the push. */
export interface TemplatesContext {
  api: ApiClient;
  db: OutpostDb;
  viewer: () => Viewer & { user: UserSummary };
  /** Resolves once the remembered account is restored, so an early write is never the guest's. */
  restored: () => Promise<void>;
  pushNow: LazyEngine['pushNow'];
  keepStorage: () => void;
}

/** The templates the device holds, by name. */
async function cached(db: OutpostDb): Promise<Template[]> {
  const templates = await db.templates.toArray();
  return templates.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Replaces the device's templates with the server's list (one deleted elsewhere goes). */
async function keep(db: OutpostDb, templates: Template[]): Promise<void> {
  await db.transaction('rw', db.templates, async () => {
    await db.templates.clear();
    await db.templates.bulkPut(templates);
  });
}

/** The list as the device holds it, and whether it came from the server just now. */
export interface TemplateList {
  templates: Template[];
  fresh: boolean;
}

/** What a created tree's toast says: 'Created 12 items from “Onboarding”'. */
export function createdLabel(count: number, name: string): string {
  return `Created ${count} ${count === 1 ? 'item' : 'items'} from “${name}”`;
}

export const commands = defineCommands<TemplatesContext>()({
  /** The server's list when it answers (kept for offline), else the one kept. */
  'templates.list': async (c): Promise<TemplateList> => {
    if (c.viewer().isGuest) return { templates: [], fresh: false };
    try {
      const { templates } = (await c.api.get<{ templates: Template[] }>('/templates')).data;
      await keep(c.db, templates);
      return { templates, fresh: true };
    } catch (error) {
      if (!isNetworkError(error)) throw error;
      return { templates: await cached(c.db), fresh: false };
    }
  },
  /** The list kept on the device (no request). */
  'templates.cached': async (c): Promise<Template[]> => cached(c.db),
  /** Saves an item (and what lies under it) as a template; needs the server, which snapshots it. */
  'templates.save': async (
    c,
    a: { name: string; itemId: number; kind?: TemplateKind },
  ): Promise<Template> => {
    const item = await c.db.items.get(a.itemId);
    if (a.itemId < 0 || (item && item._syncStatus !== 'synced'))
      throw new Error('Wait until this item has reached the server, then save it as a template.');
    const template = (
      await c.api.post<Template>('/templates', {
        name: a.name,
        from_item_id: a.itemId,
        ...(a.kind ? { kind: a.kind } : {}),
      })
    ).data;
    await c.db.templates.put(template);
    return template;
  },
  /** Renames a template on the server (online only) and keeps the answer. */
  'templates.rename': async (c, a: { id: number; name: string }): Promise<Template> => {
    const template = (await c.api.patch<Template>(`/templates/${a.id}`, { name: a.name })).data;
    await c.db.templates.put(template);
    return template;
  },
  /** Deletes a template on the server (online only; its members' devices drop it at their next pull). */
  'templates.remove': async (c, id: number): Promise<void> => {
    await c.api.delete(`/templates/${id}`);
    await c.db.templates.delete(id);
  },
  /**
   * Creates a template's items on the device in one write, dates from `anchorDate`, the top items
   * under `parentId` (a checklist's task) or at the top level. Answers what the toast says and the
   * top item's id.
   */
  'templates.instantiate': async (
    c,
    a: { template: Pick<Template, 'name' | 'tree'>; anchorDate: string; parentId?: number | null },
  ): Promise<{ count: number; topId: number | null; label: string; requestUuid: string }> => {
    await c.restored();
    const requestUuid = crypto.randomUUID();
    const entries = instantiateEntries(a.template.tree as TemplateTree, {
      anchorDate: a.anchorDate,
      requestUuid,
      parentId: a.parentId ?? null,
    });
    const label = createdLabel(entries.length, a.template.name);
    const stored = await createTree(c, entries, label);
    c.keepStorage();
    return { count: stored.items.length, topId: stored.tops[0] ?? null, label, requestUuid };
  },
});

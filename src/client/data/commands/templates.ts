/**
 * Templates on the device (ARCHITECTURE §4 'Templates'). The list is the server's (GET /api/templates;
 * /api/sync does not carry it yet), kept in the meta store so 'New from template' works offline. Saving
 * asks the server (the snapshot is its). Creating from one is the device's: the shared
 * instantiateEntries with a fresh request uuid, stored as one write (../items/templateWrites.ts) whose
 * creates go up through the queue, so the server ends up with the same uuids.
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

/** The meta row the last list from the server is kept under (no store of its own: one small value). */
const CACHE_KEY = 'templates';

/** The list as the device holds it, and whether it came from the server just now. */
export interface TemplateList {
  templates: Template[];
  fresh: boolean;
}

async function cached(db: OutpostDb): Promise<Template[]> {
  const row = await db.meta.get(CACHE_KEY);
  return Array.isArray(row?.value) ? (row.value as Template[]) : [];
}

async function keep(db: OutpostDb, templates: Template[]): Promise<void> {
  await db.meta.put({ key: CACHE_KEY, value: templates });
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
    await keep(c.db, [template, ...(await cached(c.db)).filter((t) => t.id !== template.id)]);
    return template;
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

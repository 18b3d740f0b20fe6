import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeDbs, freshFakeDb } from '../../../../testkit/client/fakeDb';
import { serverItem } from '../../../../testkit/client/items';
import type { View } from '../../../shared/filter/views';
import type { Template } from '../../../shared/templates';
import { applyPulled } from './pull';

afterEach(() => closeFakeDbs());

const view = (id: number, name: string, campaignId: number | null, creator = 1): View => ({
  id,
  uuid: `view-${id}`,
  name,
  query: 'p1',
  grammar: 1,
  sort: 'due',
  campaign_id: campaignId,
  created_by: { id: creator, name: `Person ${creator}` },
  updated_at: '2026-11-29T10:00:00.000Z',
});

const template = (id: number, name: string, campaignId: number | null): Template => ({
  id,
  uuid: `template-${id}`,
  name,
  kind: 'task',
  campaign_id: campaignId,
  tree: { nodes: [] },
  created_by: { id: 2, name: 'Person 2' },
  updated_at: '2026-11-29T10:00:00.000Z',
});

const gone = (id: number, kind: string) => ({
  id,
  uuid: `${kind}-${id}`,
  deleted_at: '2026-11-29T11:00:00.000Z',
});

describe('templates and views from pulled pages', () => {
  it('L13: stores the page’s rows, replaces a changed one, and a tombstone takes it out', async () => {
    const db = await freshFakeDb();
    await applyPulled(db, [], 'c1.a.0', {}, false, undefined, undefined, undefined, {
      templates: [template(7, 'Release', null)],
      views: [view(1, 'Urgent', null), view(2, 'Later', null)],
    });
    expect((await db.views.toArray()).map((v) => v.name)).toEqual(['Urgent', 'Later']);
    expect((await db.templates.toArray()).map((t) => t.name)).toEqual(['Release']);

    await applyPulled(db, [], 'c1.b.0', {}, false, undefined, undefined, undefined, {
      views: [view(1, 'Urgent now', null), gone(2, 'view')],
      templates: [gone(7, 'template')],
    });
    expect((await db.views.toArray()).map((v) => v.name)).toEqual(['Urgent now']);
    expect(await db.templates.count()).toBe(0);
  });

  it('L13: within one stored fold the last change of a row wins, whatever came before it', async () => {
    const db = await freshFakeDb();
    await applyPulled(db, [], 'c1.a.0', {}, false, undefined, undefined, undefined, {
      views: [view(3, 'First', null), gone(3, 'view'), view(4, 'Kept', null), view(4, 'Kept again', null)],
    });
    expect((await db.views.toArray()).map((v) => v.name)).toEqual(['Kept again']);
  });

  it('L14: a campaign that leaves the device takes the rows shared with it before the page’s own go in', async () => {
    const db = await freshFakeDb();
    const campaign = serverItem(50, 'Launch', { uuid: 'campaign-50', type: 'campaign', parent_id: null });
    await applyPulled(db, [campaign], 'c1.a.0', {}, false, undefined, undefined, undefined, {
      views: [view(1, 'Team', 50, 2), view(2, 'Mine on it', 50, 1), view(3, 'Mine alone', null)],
      templates: [template(9, 'Team checklist', 50)],
    });
    expect(await db.views.count()).toBe(3);

    // The campaign goes (a tombstone); the reader's own view of it comes back in the same page (L14).
    await applyPulled(
      db,
      [{ id: 50, uuid: 'campaign-50', deleted_at: '2026-11-29T11:00:00.000Z' }],
      'c1.b.0',
      {},
      false,
      undefined,
      undefined,
      undefined,
      { views: [view(2, 'Mine on it', 50, 1)] },
    );
    expect((await db.views.toArray()).map((v) => v.name).sort()).toEqual(['Mine alone', 'Mine on it']);
    expect(await db.templates.count()).toBe(0);
  });
});

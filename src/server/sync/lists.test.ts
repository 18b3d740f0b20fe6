import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { share } from '../../../testkit/sharing';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import type { View } from '../../shared/filter/views';
import type { SyncPage } from '../../shared/item';
import { isListTombstone, type SyncListChanges, type SyncPageLists } from '../../shared/syncLists';
import type { Template } from '../../shared/templates';
import { type Database, rows, sql } from '../db/client';
import { decodeCursor } from './cursor';

type Page = SyncPage & SyncPageLists;

let database: Database;

/**
 * Pulls from `cursor` until it has passed the newest write of every table a page reads, returning the
 * lists' entries in order. Another database's open transaction can hold a shared PostgreSQL
 * cluster's horizon back for a moment: 'nothing more' alone is not 'caught up'.
 */
async function pull(client: TestClient, cursor = '') {
  const [newest] = await rows<{ xid: string }>(
    database.db,
    sql`SELECT GREATEST((SELECT COALESCE(max(change_xid), 0) FROM items),
                        (SELECT COALESCE(max(change_xid), 0) FROM templates),
                        (SELECT COALESCE(max(change_xid), 0) FROM views),
                        (SELECT COALESCE(max(change_xid), 0) FROM campaign_members),
                        (SELECT COALESCE(max(change_xid), 0) FROM item_revocations))::text AS xid`,
  );
  const target = BigInt(newest?.xid ?? '0');
  const templates: SyncListChanges['templates'][] = [];
  const views: SyncListChanges['views'][] = [];
  const items: SyncPage['items'] = [];
  for (let pulls = 0; pulls < 500; pulls++) {
    const page = await client.get<Page>(`/api/sync?cursor=${encodeURIComponent(cursor)}`);
    expect(page.status, page.text).toBe(200);
    items.push(...page.body.items);
    templates.push(...(page.body.templates ?? []));
    views.push(...(page.body.views ?? []));
    cursor = page.body.cursor;
    if (!page.body.has_more && (decodeCursor(cursor)?.xid ?? 0n) > target)
      return { items, templates, views, cursor };
    if (!page.body.has_more) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the sync cursor never caught up with the last write');
}

/** What a pull says of each row: its name when live, 'gone' for a tombstone. */
const said = (changes: readonly (Template | View | { id: number; uuid: string; deleted_at: string })[]) =>
  changes.map((c) => (isListTombstone(c) ? `${c.id} gone` : `${c.id} ${(c as { name: string }).name}`));

describe.each(testEngines())('templates and views in sync pages on %s', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
    database = harness.database;
  });
  afterAll(() => harness?.close());

  const saveTemplate = async (
    c: TestClient,
    name: string,
    fromItemId: number,
    campaignId?: number | null,
  ) => {
    const saved = await c.post<Template>('/api/templates', {
      name,
      from_item_id: fromItemId,
      ...(campaignId === undefined ? {} : { campaign_id: campaignId }),
    });
    expect(saved.status, saved.text).toBe(201);
    return saved.body;
  };
  const saveView = async (c: TestClient, name: string, campaignId: number | null = null) => {
    const saved = await c.post<View>('/api/views', {
      name,
      query: 'p1',
      campaign_id: campaignId,
      uuid: randomUUID(),
    });
    expect(saved.status, saved.text).toBe(201);
    return saved.body;
  };

  it('L13: a pull carries the reader’s own templates and views, then only what changed, deletes as bare tombstones', async () => {
    const alex = await signedIn(harness.app, 'Alex');
    const stranger = await signedIn(harness.app, 'Stranger');
    const task = await alex.create({ title: 'Release', type: 'task' });
    const template = await saveTemplate(alex, 'Release checklist', task.id);
    const view = await saveView(alex, 'Urgent');

    const boot = await pull(alex);
    expect(said(boot.templates)).toEqual([`${template.id} Release checklist`]);
    expect(boot.templates[0]).toEqual(template);
    expect(said(boot.views)).toEqual([`${view.id} Urgent`]);
    expect(boot.views[0]).toEqual(view);

    // A current cursor gets nothing again (L2); a rename comes alone, a delete as a tombstone only.
    expect(said((await pull(alex, boot.cursor)).views)).toEqual([]);
    expect((await alex.patch(`/api/views/${view.id}`, { name: 'Urgent now' })).status).toBe(200);
    expect((await alex.delete(`/api/templates/${template.id}`)).status).toBe(204);
    const next = await pull(alex, boot.cursor);
    expect(said(next.views)).toEqual([`${view.id} Urgent now`]);
    expect(next.templates).toEqual([
      { id: template.id, uuid: template.uuid, deleted_at: expect.any(String) },
    ]);

    // Someone else learns nothing of them: not the rows, not their tombstones.
    const theirs = await pull(stranger);
    expect(theirs.templates).toEqual([]);
    expect(theirs.views).toEqual([]);
  });

  it('L14: a member let in pulls the campaign’s shared rows; unshared they go as tombstones, and come back when shared again', async () => {
    const owner = await signedIn(harness.app, 'Owner');
    const member = await signedIn(harness.app, 'Member');
    const campaign = await owner.create({ title: 'Onboarding', type: 'campaign' });
    await owner.create({ title: 'Accounts', type: 'task', parent_id: campaign.id });
    const template = await saveTemplate(owner, 'Onboarding', campaign.id, campaign.id);
    const view = await saveView(owner, 'Team p1', campaign.id);
    const personal = await saveView(owner, 'Mine only');

    const before = await pull(member);
    expect(before.templates).toEqual([]);
    await share(owner, campaign, 'viewer', member);
    const granted = await pull(member, before.cursor);
    expect(said(granted.templates)).toEqual([`${template.id} Onboarding`]);
    expect(said(granted.views)).toEqual([`${view.id} Team p1`]);
    expect(said(granted.views)).not.toContain(`${personal.id} Mine only`);

    expect((await owner.patch(`/api/templates/${template.id}`, { campaign_id: null })).status).toBe(200);
    expect((await owner.patch(`/api/views/${view.id}`, { campaign_id: null })).status).toBe(200);
    const unshared = await pull(member, granted.cursor);
    expect(unshared.templates).toEqual([
      { id: template.id, uuid: template.uuid, deleted_at: expect.any(String) },
    ]);
    expect(unshared.views).toEqual([{ id: view.id, uuid: view.uuid, deleted_at: expect.any(String) }]);
    // Its creator still has it, live.
    expect(said((await pull(owner, granted.cursor)).templates)).toEqual([`${template.id} Onboarding`]);

    expect((await owner.patch(`/api/templates/${template.id}`, { campaign_id: campaign.id })).status).toBe(
      200,
    );
    const again = await pull(member, unshared.cursor);
    expect(said(again.templates)).toEqual([`${template.id} Onboarding`]);
  });

  it('L14: a trashed campaign takes its shared rows from members as tombstones, leaves the creator’s own, and a restore brings them back', async () => {
    const owner = await signedIn(harness.app, 'Trash owner');
    const editor = await signedIn(harness.app, 'Trash editor');
    const campaign = await owner.create({ title: 'Launch', type: 'campaign' });
    await share(owner, campaign, 'editor', editor);
    const mine = await saveView(owner, 'Launch p1', campaign.id);
    const theirs = await saveView(editor, 'Launch mine', campaign.id);
    const start = await pull(owner);
    const editorStart = await pull(editor);
    expect(said(start.views).sort()).toEqual([`${mine.id} Launch p1`, `${theirs.id} Launch mine`].sort());

    expect((await owner.delete(`/api/items/${campaign.id}`)).status).toBe(204);
    const trashed = await pull(owner, start.cursor);
    expect(said(trashed.views).sort()).toEqual([`${mine.id} Launch p1`, `${theirs.id} gone`].sort());
    // The editor lost the campaign, so hears nothing more of either (the device drops them with it).
    const editorTrashed = await pull(editor, editorStart.cursor);
    expect(said(editorTrashed.views)).not.toContain(`${mine.id} Launch p1`);

    expect((await owner.post(`/api/items/${campaign.id}/restore`, {})).status).toBe(200);
    const restored = await pull(owner, trashed.cursor);
    expect(said(restored.views).sort()).toEqual([`${mine.id} Launch p1`, `${theirs.id} Launch mine`].sort());
  });

  it('L14: a member removed from a campaign pulls its tombstone and nothing of its shared rows', async () => {
    const owner = await signedIn(harness.app, 'Leaving owner');
    const member = await signedIn(harness.app, 'Leaving member');
    const campaign = await owner.create({ title: 'Secret plan', type: 'campaign' });
    await share(owner, campaign, 'viewer', member);
    const template = await saveTemplate(owner, 'Secret recipe', campaign.id, campaign.id);
    const start = await pull(member);
    expect(said(start.templates)).toEqual([`${template.id} Secret recipe`]);
    expect((await owner.delete(`/api/campaigns/${campaign.id}/members/${member.user!.id}`)).status).toBe(204);
    expect((await owner.patch(`/api/templates/${template.id}`, { name: 'Secret recipe v2' })).status).toBe(
      200,
    );
    const after = await pull(member, start.cursor);
    expect(after.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: campaign.id, deleted_at: expect.any(String) })]),
    );
    expect(after.templates).toEqual([]);
    expect(JSON.stringify(after)).not.toContain('v2');
  });

  it('L15: a write to a shared template or view is announced to the campaign’s members', async () => {
    const owner = await signedIn(harness.app, 'Loud owner');
    const member = await signedIn(harness.app, 'Loud member');
    const stranger = await signedIn(harness.app, 'Quiet stranger');
    const campaign = await owner.create({ title: 'Announced', type: 'campaign' });
    await share(owner, campaign, 'viewer', member);
    const heard: string[] = [];
    const stops = [owner, member, stranger].map((c) =>
      harness.app.changes.subscribe(c.user!.id, () => heard.push(c.user!.name)),
    );
    await saveView(owner, 'Shared now', campaign.id);
    // PostgreSQL delivers through LISTEN/NOTIFY, a moment after the commit.
    await vi.waitFor(() => expect(new Set(heard)).toEqual(new Set(['Loud owner', 'Loud member'])));
    for (const stop of stops) stop();
  });
});

import { expect, test } from '@playwright/test';
import { freshPhone, uniqueTitle } from './pages/Outpost';
import { type ServerItem, Templates } from './pages/Templates';

// Created offline too: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

const byTitle = (items: ServerItem[], title: string) => items.filter((i) => i.title === title);

test('templates: a campaign saved as a template is created again with shifted dates, offline too, and one undo takes the tree back', async ({
  page,
}) => {
  // Pictures with axe at two sizes and two themes, and an offline round trip, on a shared machine.
  test.setTimeout(240_000);
  const app = await Templates.open(page, freshPhone(), 'Tess Templates');
  const campaignTitle = uniqueTitle('Onboarding');
  const taskA = uniqueTitle('Laptop');
  const taskB = uniqueTitle('Accounts');
  const campaign = await app.post<{ id: number }>('/api/items', {
    title: campaignTitle,
    type: 'campaign',
    due_date: '2026-03-10',
  });
  const a = await app.post<{ id: number }>('/api/items', {
    title: taskA,
    type: 'task',
    parent_id: campaign.id,
    start_date: '2026-03-02',
    due_date: '2026-03-05',
  });
  await app.post('/api/items', { title: 'Order it', type: 'todo', parent_id: a.id, due_date: '2026-03-04' });
  await app.post('/api/items', { title: 'Set it up', type: 'todo', parent_id: a.id });
  await app.post('/api/items', {
    title: taskB,
    type: 'task',
    parent_id: campaign.id,
    due_date: '2026-03-09',
  });
  const name = `Onboarding ${uniqueTitle('tpl')}`;

  await test.step('save the campaign as a template from its menu', async () => {
    await app.goto(`/campaigns/${campaign.id}`);
    await expect(app.heading(campaignTitle)).toBeVisible();
    await app.waitForOfflineReady();
    const dialog = await app.openSaveFromCampaign(campaignTitle, name);
    await app.pictures('templates-save');
    await app.save(dialog);
    await expect(app.page.getByText('Template saved').first()).toBeVisible();
  });

  await test.step('create from it on Home with another start date: the tree, dates moved by 35 days', async () => {
    await app.goto('/');
    const dialog = await app.openNewFromTemplate(name, '2026-04-06');
    await expect(dialog.getByText('1 campaign, 2 tasks, 2 todos')).toBeVisible();
    await app.pictures('templates-new');
    await app.create(dialog, `Created 5 items from “${name}”`);
    await expect
      .poll(
        async () =>
          byTitle(await app.serverItems(), taskA)
            .map((i) => i.due_date)
            .sort(),
        {
          timeout: 30_000,
        },
      )
      .toEqual(['2026-03-05', '2026-04-09']);
    const items = await app.serverItems();
    expect(
      byTitle(items, campaignTitle)
        .map((i) => i.due_date)
        .sort(),
    ).toEqual(['2026-03-10', '2026-04-14']);
    expect(
      byTitle(items, taskA)
        .map((i) => i.start_date)
        .sort(),
    ).toEqual(['2026-03-02', '2026-04-06']);
    expect(items).toHaveLength(10);
  });

  await test.step('offline: create from it, reconnect: exactly five more items reach the server', async () => {
    await page.context().setOffline(true);
    await app.goto('/');
    const dialog = await app.openNewFromTemplate(name, '2026-05-04');
    await app.create(dialog, `Created 5 items from “${name}”`);
    await expect(app.main.getByText(campaignTitle).first()).toBeVisible();
    await page.context().setOffline(false);
    await expect.poll(async () => (await app.serverItems()).length, { timeout: 60_000 }).toBe(15);
    const items = await app.serverItems();
    expect(
      byTitle(items, taskB)
        .map((i) => i.due_date)
        .sort(),
    ).toEqual(['2026-03-09', '2026-04-13', '2026-05-11']);
    // Every uuid once: no item was made twice.
    expect(new Set(items.map((i) => i.uuid)).size).toBe(15);
  });

  await test.step('a task’s todos saved as a checklist are added to another task from its menu', async () => {
    const other = await app.post<{ id: number }>('/api/items', { title: uniqueTitle('Desk'), type: 'task' });
    await app.goto(`/tasks/${a.id}`);
    await expect(app.heading(taskA)).toBeVisible();
    await app.main.getByRole('button', { name: `More actions for ${taskA}` }).click();
    await app.page.getByRole('menuitem', { name: 'Save as template…' }).click();
    const save = app.dialog('Save as template');
    await save.getByRole('textbox', { name: 'Template name' }).fill(`${name} steps`);
    await save.getByRole('radio', { name: /Checklist/ }).click();
    await app.save(save);
    await app.goto(`/tasks/${other.id}`);
    await app.main.getByRole('button', { name: /^More actions for Desk/ }).click();
    await app.page.getByRole('menuitem', { name: 'Add checklist…' }).click();
    const add = app.dialog('Add checklist');
    await add.getByRole('radio', { name: new RegExp(`${name} steps`) }).click();
    await expect(add.getByText('2 todos')).toBeVisible();
    await app.pictures('templates-checklist');
    await app.create(add, `Created 2 items from “${name} steps”`);
    const todos = app.main.getByRole('list', { name: /^Todos of/ });
    await expect(todos.getByText('Order it')).toBeVisible();
    await expect(todos.getByText('Set it up')).toBeVisible();
    await expect
      .poll(async () => (await app.serverItems()).filter((i) => i.parent_id === other.id).length, {
        timeout: 30_000,
      })
      .toBe(2);
  });

  await test.step('one undo takes the whole created tree back', async () => {
    await app.goto('/');
    const dialog = await app.openNewFromTemplate(name, '2026-06-01');
    const toast = await app.create(dialog, `Created 5 items from “${name}”`);
    await expect.poll(async () => (await app.serverItems()).length, { timeout: 30_000 }).toBe(23);
    await toast.locator('xpath=ancestor::li[1]').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await app.serverItems()).length, { timeout: 30_000 }).toBe(18);
  });

  await test.step('renamed, then deleted, from the dialog: gone from the list and the server', async () => {
    await app.goto('/');
    const dialog = await app.openNewFromTemplate(name, '2026-06-01');
    await dialog.getByRole('button', { name: 'Rename…' }).click();
    await dialog.getByRole('textbox', { name: 'New name' }).fill(`${name} v2`);
    await dialog.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect(dialog.getByRole('radio', { name: new RegExp(`${name} v2`) })).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete…' }).click();
    await app.pictures('templates-delete');
    await dialog.getByRole('button', { name: 'Delete template' }).click();
    await expect(dialog.getByRole('radio', { name: new RegExp(`${name} v2`) })).toHaveCount(0);
    const left = (await (await page.request.get('/api/templates')).json()) as {
      templates: { name: string }[];
    };
    expect(left.templates.map((t) => t.name)).not.toContain(`${name} v2`);
  });
});

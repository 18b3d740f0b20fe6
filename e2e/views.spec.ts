import { expect, test } from '@playwright/test';
import { ApiUser } from './pages/Collab';
import { freshPhone, uniqueTitle } from './pages/Outpost';
import { Views } from './pages/Views';

// Opened offline too: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

test('saved views: a typed filter lists matching items, an error names its column, the saved view is in the navigation, shows a change from elsewhere live and opens offline', async ({
  page,
}) => {
  // Eight pictures with axe on a shared two-core machine.
  test.setTimeout(180_000);
  const app = await Views.open(page, freshPhone(), 'Vera Views');
  const label = uniqueTitle('harbour').replace(' ', '').toLowerCase();
  const permit = uniqueTitle('Harbour permit');
  const timetable = uniqueTitle('Ferry timetable');
  await app.post('/api/items', { title: permit, type: 'task', priority: 1, labels: [label] });
  const other = await app.post<{ id: number }>('/api/items', { title: timetable, type: 'task', priority: 3 });

  await app.goto('/today');
  await app.waitForOfflineReady();

  await test.step('typing a filter lists the matching items as it is typed', async () => {
    await app.goto('/views/new');
    await expect(app.heading('New view')).toBeVisible();
    await app.typeFilter(`+${label}`);
    await expect(app.matchRow(permit)).toBeVisible();
    await expect(app.matchRow(timetable)).toHaveCount(0);
    await app.typeFilter(`+${label} & !due before: tomorrow`);
    const understood = app.main.getByRole('list', { name: 'Understood from the filter' });
    await expect(understood.getByRole('listitem')).toHaveText([
      `+${label}`,
      /^not due before: tomorrow \(\d{4}-\d{2}-\d{2}\)$/,
    ]);
    await expect(app.matchRow(permit)).toBeVisible();
  });

  await test.step('a malformed query is told with its column under the field', async () => {
    await app.typeFilter('p1 & due before:');
    await expect(app.main.getByRole('alert')).toHaveText(/^Expected a date .* at 17$/);
    await expect(app.filterField).toHaveAttribute('aria-invalid', 'true');
    await app.pictures('views-error');
    await app.typeFilter(`+${label}`);
    await expect(app.matchRow(permit)).toBeVisible();
  });

  await test.step('saved, it is in the navigation and opens from there', async () => {
    await app.saveView('Harbour work');
    await app.goto('/today');
    await app.openFromNav('Harbour work');
    await expect(app.filterField).toHaveValue(`+${label}`);
    await expect(app.matchRow(permit)).toBeVisible();
  });

  await test.step('an item changed elsewhere so it matches appears in the open view, live', async () => {
    await expect(app.matchRow(timetable)).toHaveCount(0);
    await app.patch(`/api/items/${other.id}`, { labels: [label] });
    await expect(app.matchRow(timetable)).toBeVisible({ timeout: 15_000 });
    await app.pictures('views-saved');
  });

  await test.step('edited: a new query, name and order saved to the same view, which the navigation names anew', async () => {
    await app.main.getByRole('button', { name: 'Edit view' }).click();
    await app.typeFilter(`+${label} & p1`);
    await expect(app.matchRow(timetable)).toHaveCount(0);
    await app.main.getByRole('textbox', { name: 'View name' }).fill('Harbour urgent');
    await app.main.getByRole('combobox', { name: 'Sort by' }).selectOption('priority');
    const address = page.url();
    await app.main.getByRole('button', { name: 'Save changes' }).click();
    await expect(app.heading('Harbour urgent')).toBeVisible();
    expect(page.url()).toBe(address);
    await app.pictures('views-edited');
    const views = (await (await page.request.get('/api/views')).json()) as {
      views: { name: string; query: string; sort: string }[];
    };
    expect(views.views).toEqual([
      expect.objectContaining({ name: 'Harbour urgent', query: `+${label} & p1`, sort: 'priority' }),
    ]);
    // Back as it was, for the steps after.
    await app.main.getByRole('button', { name: 'Edit view' }).click();
    await app.typeFilter(`+${label}`);
    await app.main.getByRole('textbox', { name: 'View name' }).fill('Harbour work');
    await app.main.getByRole('button', { name: 'Save changes' }).click();
    await expect(app.heading('Harbour work')).toBeVisible();
    await expect(app.matchRow(timetable)).toBeVisible();
  });

  await test.step('a view saved on another device arrives with the sync, no reload', async () => {
    await app.post('/api/views', { name: 'Made elsewhere', query: 'p3', uuid: crypto.randomUUID() });
    await app.goto('/today');
    await expect
      .poll(
        async () => {
          await app.page
            .getByRole('navigation', { name: 'Main' })
            .getByRole('button', { name: 'Views' })
            .click();
          const found = await app.page.getByRole('menuitem', { name: 'Made elsewhere' }).count();
          await app.page.keyboard.press('Escape');
          return found;
        },
        { timeout: 15_000 },
      )
      .toBe(1);
  });

  await test.step('offline: the saved view opens from the navigation; saving another says it needs a connection', async () => {
    await page.context().setOffline(true);
    await app.goto('/today');
    await app.openFromNav('Harbour work');
    await expect(app.matchRow(permit)).toBeVisible();
    await expect(app.matchRow(timetable)).toBeVisible();
    await app.typeFilter('p1');
    await app.main.getByRole('textbox', { name: 'View name' }).fill('Urgent');
    await app.main.getByRole('button', { name: 'Save as new view' }).click();
    await expect(app.main.getByRole('alert')).toHaveText(/needs a connection/);
    await page.context().setOffline(false);
  });

  await test.step('deleted by its creator, it leaves the navigation', async () => {
    await app.goto('/today');
    await app.openFromNav('Harbour work');
    await app.main.getByRole('button', { name: 'Delete view' }).click();
    await app.page.getByRole('alertdialog').getByRole('button', { name: 'Delete view' }).click();
    await expect(app.heading('Today')).toBeVisible();
    await app.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Views' }).click();
    await expect(app.page.getByRole('menuitem', { name: 'Harbour work' })).toHaveCount(0);
    await app.page.keyboard.press('Escape');
  });
});

test('a view shared with a campaign: a member opens it from the navigation with the members’ avatars, uses it, cannot delete it, and sees new work live', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const phone = freshPhone();
  const app = await Views.open(page, phone, 'Mira Member');
  const owner = await ApiUser.signIn(baseURL!, freshPhone(), 'Otto Owner');
  await owner.post('/api/contacts/sync', { contacts: [phone] });
  await app.post('/api/contacts/sync', { contacts: [owner.phone] });
  const me = (await (await page.request.get('/api/me')).json()) as { user: { id: number } };
  const campaignTitle = uniqueTitle('Dock');
  const campaign = await owner.post<{ id: number }>('/api/items', { title: campaignTitle, type: 'campaign' });
  await owner.post(`/api/campaigns/${campaign.id}/members`, { user_id: me.user.id, role: 'viewer' });
  const ropes = uniqueTitle('Coil ropes');
  await owner.post('/api/items', { title: ropes, type: 'task', parent_id: campaign.id, priority: 1 });
  await owner.post('/api/views', {
    name: 'Dock urgent',
    query: `#"${campaignTitle}" & p1`,
    campaign_id: campaign.id,
  });

  await app.goto('/today');
  await app.openFromNav('Dock urgent');
  await expect(app.main.getByRole('img', { name: /^Shared with 2 people/ })).toBeVisible();
  await expect(app.matchRow(ropes)).toBeVisible();
  await expect(app.main.getByRole('button', { name: 'Delete view' })).toHaveCount(0);

  const fenders = uniqueTitle('Hang fenders');
  await owner.post('/api/items', { title: fenders, type: 'task', parent_id: campaign.id, priority: 1 });
  await expect(app.matchRow(fenders)).toBeVisible({ timeout: 15_000 });
  await owner.dispose();
});

test('a screen opened asks for the saved views once, though the header holds the phone’s navigation and the wide one', async ({
  page,
}) => {
  const app = await Views.open(page, freshPhone(), 'Ona Once');
  await app.goto('/today');
  const asked: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/views')
      asked.push(Date.now());
  });
  await app.goto('/upcoming');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Views' }),
  ).toBeVisible();
  await expect.poll(() => asked.length).toBeGreaterThan(0);
  // The two navigations mount together: a second request, if any, leaves within the same moment as
  // the first. Counted from the first, not from the navigation, which a loaded machine can stretch.
  await page.waitForTimeout(1_500);
  const first = asked[0]!;
  expect(asked.filter((at) => at - first < 1_500)).toHaveLength(1);
});

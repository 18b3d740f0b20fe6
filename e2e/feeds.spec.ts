import { expect, test } from '@playwright/test';
import { ApiUser, Collab } from './pages/Collab';
import { freshPhone, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

interface Created {
  id: number;
  title: string;
}

const OFFLINE = "You're offline — this needs a connection";

test('the activity feed reads names, one line per entry and readable changes', async ({
  page,
  baseURL,
}, testInfo) => {
  const alexPhone = freshPhone();
  const app = await Collab.signedIn(page, alexPhone, 'Alex Feed');
  const bee = await ApiUser.signIn(baseURL!, freshPhone(), 'Bee Mutual');
  try {
    await app.post('/api/contacts/sync', { contacts: [bee.phone] });
    await bee.post('/api/contacts/sync', { contacts: [alexPhone] });
    const campaign = await app.post<Created>('/api/items', {
      title: uniqueTitle('Move house'),
      type: 'campaign',
    });
    const todo = await app.post<Created>('/api/items', {
      title: uniqueTitle('Buy tape'),
      type: 'todo',
      parent_id: campaign.id,
    });
    await app.post(`/api/items/${todo.id}/assign`, { user_id: bee.id });
    await app.patch(`/api/items/${todo.id}`, { due_date: '2030-05-05' });
    await app.patch(`/api/items/${todo.id}`, { status: 'in_progress' });
    await app.patch(`/api/items/${todo.id}`, { status: 'completed' });

    await app.openActivity(campaign.id);
    await expect(app.activity).toBeVisible();
    const lines = await app.activityLines();
    expect(lines).toContain(`Alex Feed assigned todo “${todo.title}” to Bee Mutual`);
    expect(lines).toContain(`Alex Feed completed todo “${todo.title}”`);
    expect(lines).toContain(
      `Campaign “${campaign.title}” was completed automatically, because all its items are done`,
    );
    expect(lines).toContain(
      `Campaign “${campaign.title}” was started automatically, because work started on an item inside`,
    );
    await expect(app.activity.getByText('Due date: none → 5 May 2030', { exact: true })).toBeVisible();
    await expect(
      app.activity.getByText('Status: Pending → In progress', { exact: true }).first(),
    ).toBeVisible();
    // No ids, no jargon, no headline repeated as a sentence.
    const text = (await app.activity.textContent()) ?? '';
    expect(text).not.toMatch(/Rolled up|rolled_up|\d+ → \d+|assigned_to/i);
    expect(text).not.toContain(`"${todo.title}"`);
    // Each entry keeps the spec's action colour and a relative time.
    await expect(app.activity.locator('[data-action="assigned"]').first()).toHaveClass(/bg-orange/);
    await expect(app.activity.locator('[data-action="completed"]').first()).toHaveClass(/bg-purple/);
    await expect(app.activity.locator('time').first()).toHaveText(/ago$/);

    for (const theme of ['light', 'dark'] as const) {
      await app.setTheme(theme);
      await app.screenshot(testInfo, `activity-feed-${theme}`);
      expect(await app.seriousA11yViolations()).toEqual([]);
    }
  } finally {
    await bee.dispose();
  }
});

test("a guest's campaign shows its local history, and the empty text only when there is none", async ({
  page,
}, testInfo) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Collab(page);
  await app.skipOnboarding();
  const campaign = uniqueTitle('Guest trip');
  const todo = uniqueTitle('Pack bags');
  await app.goto('/');
  await app.quickAdd('campaign', campaign);
  await app.row(campaign).getByRole('link', { name: campaign }).click();
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(app.activity).toBeVisible();
  expect(await app.activityLines()).toEqual([`You created campaign “${campaign}”`]);

  await page.getByRole('tab', { name: 'Contents' }).click();
  await app.quickAdd('todo', todo);
  await app
    .row(todo)
    .getByRole('button', { name: `Mark as done: ${todo}` })
    .click();
  await page.getByRole('tab', { name: 'Activity' }).click();
  // Completing the only todo completes the campaign too (roll-up): its completed_at tells that.
  await expect(app.activity.locator(':scope > li')).toHaveCount(4);
  const lines = await app.activityLines();
  expect(lines.slice(2)).toEqual([`You created todo “${todo}”`, `You created campaign “${campaign}”`]);
  expect(lines.slice(0, 2).sort()).toEqual(
    [`You completed campaign “${campaign}”`, `You completed todo “${todo}”`].sort(),
  );
  await app.screenshot(testInfo, 'activity-guest-light');
  expect(await app.seriousA11yViolations()).toEqual([]);
});

test('offline, Activity says why, keeps what was last loaded and refetches on reconnect', async ({
  page,
  context,
}, testInfo) => {
  const app = await Collab.signedIn(page, freshPhone(), 'Offline Feed');
  const campaign = await app.post<Created>('/api/items', {
    title: uniqueTitle('Offline plans'),
    type: 'campaign',
  });
  const unseen = await app.post<Created>('/api/items', {
    title: uniqueTitle('Never opened'),
    type: 'campaign',
  });
  await app.waitForOfflineReady();
  // Both campaigns are on the device before the network goes (the detail page reads the device).
  await expect(app.row(unseen.title)).toBeVisible({ timeout: 15_000 });
  await expect(app.row(campaign.title)).toBeVisible();
  await app.openActivity(campaign.id);
  await expect(app.activity.locator(':scope > li')).toHaveCount(1);

  await context.setOffline(true);
  const notice = app.main.getByRole('status').filter({ hasText: OFFLINE });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Showing the activity last loaded');
  await expect(app.activity.locator(':scope > li')).toHaveCount(1);
  for (const theme of ['light', 'dark'] as const) {
    await app.setTheme(theme);
    await app.screenshot(testInfo, `activity-offline-${theme}`);
    expect(await app.seriousA11yViolations()).toEqual([]);
  }
  await app.setTheme('light');

  // A campaign whose feed was never loaded: the reason at once, no skeleton, no 'Failed to load'.
  await page.getByRole('tab', { name: 'Contents' }).click();
  await page.evaluate((id) => {
    history.pushState({}, '', `/campaigns/${id}?tab=activity`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, unseen.id);
  await expect(app.main.getByRole('status').filter({ hasText: OFFLINE })).toContainText(
    'Activity loads when you are back online',
  );
  await expect(app.main.getByRole('status', { name: 'Loading activity' })).toHaveCount(0);
  await expect(app.main.getByText(/Failed to load/)).toHaveCount(0);

  // Written elsewhere while this device is offline; the feed shows it once the network is back.
  await page.request.patch(`/api/items/${unseen.id}`, {
    data: { title: `${unseen.title} v2` },
    headers: {
      'X-XSRF-TOKEN': decodeURIComponent(
        (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '',
      ),
    },
  });
  await context.setOffline(false);
  await expect(app.main.getByRole('status').filter({ hasText: OFFLINE })).toHaveCount(0);
  await expect(app.activity.locator(':scope > li')).toHaveCount(2, { timeout: 15_000 });
  await expect(app.activity.getByText(`Title: ${unseen.title} → ${unseen.title} v2`)).toBeVisible();
});

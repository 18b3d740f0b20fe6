import { expect, test } from '@playwright/test';
import { ApiUser, Collab } from './pages/Collab';
import { freshPhone, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

const OFFLINE = "You're offline — this needs a connection";
const digits = (phone: string) => phone.replace(/\D/g, '');
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 0x18, 0, 0,
  0, 0x18,
]);

test('CSV import: refuses files that are not text, lists skipped lines, says who is on Outpost, and the assign menu offers the new mutual at once', async ({
  page,
  baseURL,
}, testInfo) => {
  const adaPhone = freshPhone();
  const app = await Collab.signedIn(page, adaPhone, 'Ada Import');
  const bee = await ApiUser.signIn(baseURL!, freshPhone(), `Bee ${uniqueTitle('Mutual')}`);
  try {
    // Bee already has Ada's number: once Ada sends Bee's, they are mutual contacts.
    await bee.post('/api/contacts/sync', { contacts: [adaPhone] });
    const todo = uniqueTitle('Hang shelf');
    await app.goto('/');
    await app.quickAdd('todo', todo);
    expect((await app.assigneeOptions(todo)).join('\n')).not.toContain(bee.name);

    await app.goto('/contacts');
    await expect(app.heading('Contacts')).toBeVisible();
    const file = page.getByLabel('CSV file of contacts');

    await file.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
    await expect(app.toast('Not a contacts file')).toBeVisible();
    await expect(page.locator('ol > li').filter({ hasText: 'Not a contacts file' }).first()).toContainText(
      '“photo.png” is not a CSV or text file',
    );
    await file.setInputFiles({ name: 'renamed.csv', mimeType: 'text/csv', buffer: PNG });
    await expect(
      page.getByText('“renamed.csv” is not a CSV or text file', { exact: false }).first(),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Review Import' })).toHaveCount(0);

    const csv = [
      'Name,Phone',
      `Bee,${digits(bee.phone)}`,
      '"Cal Quote,5550001111',
      'Dee,1234567890123456789012',
      'Eve,12',
    ].join('\n');
    await file.setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const review = page.getByRole('region', { name: 'Review Import' });
    await expect(review).toBeVisible();
    await expect(review.getByRole('list', { name: 'Contacts to import' }).getByRole('listitem')).toHaveCount(
      2,
    );
    await expect(review.getByText('Cal Quote')).toBeVisible();
    const skipped = review.getByRole('list', { name: 'Skipped lines' }).getByRole('listitem');
    await expect(skipped).toHaveCount(3);
    await expect(skipped.nth(0)).toContainText('Line 1');
    await expect(skipped.nth(0)).toContainText('Column headings');
    await expect(skipped.nth(1)).toContainText('Line 4');
    await expect(skipped.nth(1)).toContainText('“1234567890123456789012” is not a phone number');
    await expect(skipped.nth(2)).toContainText('Line 5');
    await expect(skipped.nth(2)).toContainText('No phone number');
    for (const theme of ['light', 'dark'] as const) {
      await app.setTheme(theme);
      await app.screenshot(testInfo, `contacts-review-${theme}`);
      expect(await app.seriousA11yViolations()).toEqual([]);
    }
    await app.setTheme('light');

    await review.getByRole('button', { name: 'Import' }).click();
    await expect(app.toast('Contacts imported')).toBeVisible();
    await expect(page.getByText('Sent 2 contacts — 1 is on Outpost', { exact: true }).first()).toBeVisible();
    await expect(review).toHaveCount(0);
    const mine = page.getByRole('region', { name: 'Your Contacts' });
    await expect(mine.getByText(bee.name)).toBeVisible();

    // No relaunch: the assign menu offers Bee now.
    await app.goto('/');
    await expect(async () => expect((await app.assigneeOptions(todo)).join('\n')).toContain(bee.name)).toPass(
      {
        timeout: 10_000,
      },
    );
  } finally {
    await bee.dispose();
  }
});

test('offline, Contacts says why, keeps the list last loaded and loads again on reconnect', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const adaPhone = freshPhone();
  const app = await Collab.signedIn(page, adaPhone, 'Ada Offline');
  const bee = await ApiUser.signIn(baseURL!, freshPhone(), `Bee ${uniqueTitle('Offline')}`);
  try {
    await bee.post('/api/contacts/sync', { contacts: [adaPhone] });
    await app.post('/api/contacts/sync', { contacts: [bee.phone] });
    await app.goto('/contacts');
    const mine = page.getByRole('region', { name: 'Your Contacts' });
    await expect(mine.getByText(bee.name)).toBeVisible();

    await context.setOffline(true);
    const notice = mine.getByRole('status').filter({ hasText: OFFLINE });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Showing your contacts as last loaded');
    await expect(mine.getByText(bee.name)).toBeVisible();
    await expect(mine.getByText(/Failed to load/)).toHaveCount(0);
    for (const theme of ['light', 'dark'] as const) {
      await app.setTheme(theme);
      await app.screenshot(testInfo, `contacts-offline-${theme}`);
      expect(await app.seriousA11yViolations()).toEqual([]);
    }

    await context.setOffline(false);
    await expect(notice).toHaveCount(0);
    await expect(mine.getByText(bee.name)).toBeVisible();
  } finally {
    await bee.dispose();
  }
});

test("an assignee who cannot see the task's campaign gets no link to it", async ({ page, baseURL }) => {
  const beePhone = freshPhone();
  const app = await Collab.signedIn(page, beePhone, 'Bee Assignee');
  const owner = await ApiUser.signIn(baseURL!, freshPhone(), 'Owner Private');
  try {
    await owner.post('/api/contacts/sync', { contacts: [beePhone] });
    await app.post('/api/contacts/sync', { contacts: [owner.phone] });
    const campaign = await owner.post<{ id: number; title: string }>('/api/items', {
      title: uniqueTitle('Private campaign'),
      type: 'campaign',
    });
    const me = (await (await page.request.get('/api/me')).json()) as { user: { id: number } };
    const task = await owner.post<{ id: number; title: string }>('/api/items', {
      title: uniqueTitle('Shared task'),
      type: 'task',
      parent_id: campaign.id,
      assigned_to: me.user.id,
    });
    await app.goto(`/tasks/${task.id}`);
    await expect(page.getByRole('heading', { name: task.title })).toBeVisible({ timeout: 15_000 });
    await expect(page.locator(`a[href="/campaigns/${campaign.id}"]`)).toHaveCount(0);
    await expect(page.getByText(campaign.title)).toHaveCount(0);
  } finally {
    await owner.dispose();
  }
});

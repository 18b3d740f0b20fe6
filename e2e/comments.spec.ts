import { expect, test } from '@playwright/test';
import { takePictures } from './lib/pictures';
import { ApiUser, Collab } from './pages/Collab';
import { freshPhone, uniqueTitle } from './pages/Outpost';

// This spec works offline: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

interface Created {
  id: number;
  title: string;
}

test('K8, K9: a task’s timeline: history in words with Restore, comments as text, @mentions, offline comments and live ones', async ({
  page,
  baseURL,
  browser,
}) => {
  // Eight pictures and an offline round trip on a shared machine.
  test.setTimeout(180_000);
  const blairPhone = freshPhone();
  const app = await Collab.signedIn(page, blairPhone, 'Blair Browser');
  const alex = await ApiUser.signIn(baseURL!, freshPhone(), 'Alex Api');
  await alex.post('/api/contacts/sync', { contacts: [blairPhone] });
  await app.post('/api/contacts/sync', { contacts: [alex.phone] });
  const draft = uniqueTitle('Draft plan');
  const task = await app.post<Created>('/api/items', { title: draft, type: 'task', assigned_to: alex.id });
  await app.patch(`/api/items/${task.id}`, { title: `${draft} final` });

  await app.goto(`/tasks/${task.id}`);
  await expect(app.heading(`${draft} final`)).toBeVisible();
  const timeline = app.main.getByRole('list', { name: /^Timeline of/ });
  await expect(timeline.getByText(`Title: ${draft} → ${draft} final`)).toBeVisible();

  // Markup and a javascript: link stay text; a web address becomes a link.
  const field = app.main.getByRole('textbox', { name: 'Comment' });
  await field.fill('<img src=x onerror=alert(1)> see example.com or javascript:alert(1)');
  await field.press('Control+Enter');
  const card = timeline.locator('li[data-comment]').filter({ hasText: 'onerror' });
  await expect(card).toContainText('<img src=x onerror=alert(1)>');
  await expect(card.locator('img')).toHaveCount(0);
  await expect(card.getByRole('link')).toHaveAttribute('href', 'https://example.com');
  await expect(card.getByRole('link')).toHaveCount(1);

  // @ opens the people who see the task; the keyboard picks one.
  await field.fill('Can you check this @Al');
  const picker = page.getByRole('listbox', { name: 'People who can see this item' });
  await expect(picker.getByRole('option', { name: 'Alex Api' })).toHaveAttribute('aria-selected', 'true');
  await takePictures(page, app, 'comments', 'mention-picker', { focus: field });
  await field.press('Enter');
  await expect(field).toHaveValue('Can you check this @Alex Api ');
  await field.press('Control+Enter');
  await expect(timeline.locator('[data-mention]', { hasText: '@Alex Api' })).toBeVisible();
  await expect(async () => {
    const response = await alex.api.get('/api/notifications');
    const body = (await response.json()) as { data: { kind: string; text: string }[] };
    expect(body.data[0]).toMatchObject({
      kind: 'mentioned',
      text: `Blair Browser mentioned you on task “${draft} final”`,
    });
  }).toPass();

  // Another person's comment arrives without a reload.
  await alex.post(`/api/items/${task.id}/comments`, { body: 'On my way' });
  await expect(timeline.getByText('On my way')).toBeVisible();

  // Another device of Blair's has the task open: what this one writes offline reaches it live.
  const otherContext = await browser.newContext({ baseURL: baseURL!, serviceWorkers: 'block' });
  const other = await Collab.signedIn(await otherContext.newPage(), blairPhone, 'Blair Browser');
  await other.goto(`/tasks/${task.id}`);
  const otherTimeline = other.main.getByRole('list', { name: /^Timeline of/ });
  await expect(otherTimeline.getByText('On my way')).toBeVisible();

  // Offline (K8): shown at once as pending, kept in the device's queue across a reload, stored once
  // when the connection returns, and then shown on the other device without a reload.
  await page.context().setOffline(true);
  await field.fill('Written on the ferry');
  await field.press('Control+Enter');
  const offline = timeline.locator('li[data-comment]').filter({ hasText: 'Written on the ferry' });
  await expect(offline).toContainText('Pending sync');
  await page.reload();
  await expect(offline).toContainText('Pending sync');
  await page.context().setOffline(false);
  await expect(offline).not.toContainText('Pending sync', { timeout: 15_000 });
  await expect(otherTimeline.getByText('Written on the ferry')).toBeVisible({ timeout: 15_000 });
  await otherContext.close();
  await expect(async () => {
    const response = await alex.api.get(`/api/items/${task.id}/comments`);
    const body = (await response.json()) as { data: { body: string }[] };
    expect(body.data.filter((c) => c.body === 'Written on the ferry')).toHaveLength(1);
  }).toPass();
  await takePictures(page, app, 'comments', 'timeline', { focus: timeline });

  // Restore the old title from its history entry.
  await timeline.getByRole('button', { name: `Restore: Title: ${draft} → ${draft} final` }).click();
  await expect(page.getByText(/^(Restored|Not restored)/).first()).toHaveText(/^Restored/);
  // The title is back (the heading's name may carry more than the title: no anchors).
  await expect(app.heading(draft)).not.toContainText('final');
  expect(await app.seriousA11yViolations()).toEqual([]);
  await alex.dispose();
});

test('a mention raises the bell live and its notification opens the comment', async ({ page, baseURL }) => {
  const blairPhone = freshPhone();
  const app = await Collab.signedIn(page, blairPhone, 'Blair Bell');
  const alex = await ApiUser.signIn(baseURL!, freshPhone(), 'Alex Mentioner');
  await alex.post('/api/contacts/sync', { contacts: [blairPhone] });
  await app.post('/api/contacts/sync', { contacts: [alex.phone] });
  const me = (await page.request.get('/api/me').then((r) => r.json())).user as { id: number };
  const task = await alex.post<Created>('/api/items', {
    title: uniqueTitle('Book ferry'),
    type: 'task',
    assigned_to: me.id,
  });
  const bell = page
    .getByRole('link', { name: /^Notifications/ })
    .filter({ visible: true })
    .first();
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  const comment = await alex.post<{ id: number }>(`/api/items/${task.id}/comments`, {
    body: `@[${me.id}] the 9:00 one?`,
  });
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await bell.click();
  const entry = app.main.getByRole('link', { name: /Alex Mentioner mentioned you on task/ });
  await expect(entry).toBeVisible();
  await takePictures(page, app, 'comments', 'notification', { focus: entry });
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${task.id}#comment-${comment.id}$`));
  await expect(page.locator(`#comment-${comment.id}`)).toContainText('@Blair Bell the 9:00 one?');
  await expect(page.locator(`#comment-${comment.id}`)).toBeFocused();
  await alex.dispose();
});

test('K20: a comment the server refuses keeps its text with the reason, and Edit sends it again', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const blairPhone = freshPhone();
  const app = await Collab.signedIn(page, blairPhone, 'Blair Refused');
  const alex = await ApiUser.signIn(baseURL!, freshPhone(), 'Alex Away');
  await alex.post('/api/contacts/sync', { contacts: [blairPhone] });
  await app.post('/api/contacts/sync', { contacts: [alex.phone] });
  const title = uniqueTitle('Handover');
  const task = await app.post<Created>('/api/items', { title, type: 'task', assigned_to: alex.id });
  await app.goto(`/tasks/${task.id}`);
  await expect(app.heading(title)).toBeVisible();
  const timeline = app.main.getByRole('list', { name: /^Timeline of/ });
  const field = app.main.getByRole('textbox', { name: 'Comment' });

  // Alex is picked while he still sees the task, and loses it (unassigned elsewhere) before the send:
  // the server refuses the mention (K6) and the device keeps the comment with the reason.
  await field.fill('Over to you @Al');
  const picker = page.getByRole('listbox', { name: 'People who can see this item' });
  await expect(picker.getByRole('option', { name: 'Alex Away' })).toBeVisible();
  await takePictures(page, app, 'comments-refused', 'mention-picker', { focus: field });
  await field.press('Enter');
  await expect(field).toHaveValue('Over to you @Alex Away ');
  await app.patch(`/api/items/${task.id}`, { assigned_to: null });
  await field.press('Control+Enter');
  const refused = timeline.locator('li[data-refused]');
  await expect(refused).toContainText('Over to you @Alex Away');
  await expect(refused).toContainText('Not sent: You can only mention people who can see this item.');
  // Not counted: the server stored nothing.
  await expect(app.main.getByText('0 comments', { exact: true })).toBeVisible();
  // Kept across a reload, and never sent again by itself.
  await page.reload();
  await expect(refused).toContainText('Not sent: You can only mention people who can see this item.');
  await takePictures(page, app, 'comments-refused', 'timeline', { focus: refused });
  const onServer = async () =>
    (
      (await (await page.request.get(`/api/items/${task.id}/comments`)).json()) as {
        data: { body: string }[];
      }
    ).data;
  expect(await onServer()).toEqual([]);

  // Edit: the text comes back with the name; fixed, it goes as a new comment.
  await refused.getByRole('button', { name: 'Edit' }).click();
  const edit = refused.getByRole('textbox', { name: 'Edit comment to send again' });
  await expect(edit).toHaveValue('Over to you @Alex Away');
  await takePictures(page, app, 'comments-refused', 'timeline-editing', { focus: refused });
  await edit.fill('Over to you, Alex');
  await refused.getByRole('button', { name: 'Send' }).click();
  await expect(refused).toHaveCount(0);
  const sent = timeline.locator('li[data-comment]').filter({ hasText: 'Over to you, Alex' });
  await expect(sent).not.toContainText('Pending sync', { timeout: 15_000 });
  await expect.poll(async () => (await onServer()).map((c) => c.body)).toEqual(['Over to you, Alex']);
  expect(await app.seriousA11yViolations()).toEqual([]);
  await alex.dispose();
});

import { expect, test } from '@playwright/test';
import { takePictures } from './lib/pictures';
import { ApiUser, Collab } from './pages/Collab';
import { freshPhone, uniqueTitle } from './pages/Outpost';

interface Created {
  id: number;
  title: string;
}

test("K10: a todo's row shows its comment count and opens the todo's page with its timeline", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const blairPhone = freshPhone();
  const app = await Collab.signedIn(page, blairPhone, 'Blair Todo');
  const alex = await ApiUser.signIn(baseURL!, freshPhone(), 'Alex Todo');
  await alex.post('/api/contacts/sync', { contacts: [blairPhone] });
  await app.post('/api/contacts/sync', { contacts: [alex.phone] });
  const task = await app.post<Created>('/api/items', {
    title: uniqueTitle('Pack for the trip'),
    type: 'task',
  });
  const title = uniqueTitle('Bikes on the ferry');
  const todo = await app.post<Created>('/api/items', {
    title,
    type: 'todo',
    parent_id: task.id,
    assigned_to: alex.id,
    due_date: '2026-12-20',
  });
  await app.post(`/api/items/${todo.id}/comments`, {
    body: 'Two bikes fit in the hold, see ferries.example.com',
  });
  await alex.post(`/api/items/${todo.id}/comments`, { body: 'Booked both, €5 each' });

  await app.goto(`/tasks/${task.id}`);
  const bubble = app.row(title).getByRole('link', { name: '2 comments' });
  await expect(bubble).toBeVisible({ timeout: 15_000 });
  await takePictures(page, app, 'comments', 'row-comment-count', { focus: app.row(title) });

  await bubble.click();
  await expect(page).toHaveURL(new RegExp(`/todos/${todo.id}#timeline$`));
  await expect(app.heading(title)).toBeVisible();
  const timeline = app.main.getByRole('list', { name: /^Timeline of/ });
  await expect(timeline.getByText('Booked both, €5 each')).toBeVisible();
  await expect(app.main.getByText('2 comments', { exact: true })).toBeVisible();

  // A comment written here counts on the row the next time it is read.
  const field = app.main.getByRole('textbox', { name: 'Comment' });
  await field.fill('Great, thanks!');
  await field.press('Control+Enter');
  const sent = timeline.locator('li[data-comment]').filter({ hasText: 'Great, thanks!' });
  await expect(sent).toBeVisible();
  await expect(sent).not.toContainText('Pending sync', { timeout: 15_000 });
  await takePictures(page, app, 'comments', 'todo-page', { focus: timeline });
  expect(await app.seriousA11yViolations()).toEqual([]);

  await app.main.getByRole('link', { name: task.title }).first().click();
  await expect(app.row(title).getByRole('link', { name: '3 comments' })).toBeVisible({ timeout: 15_000 });
  await alex.dispose();
});

import { expect, test } from '@playwright/test';
import { ApiUser } from './pages/Collab';
import { freshPhone, uniqueTitle } from './pages/Outpost';
import { PolishPage } from './pages/Polish';
import { Sharing } from './pages/Sharing';

/**
 * Issue 50: an item's page that says 'Task not found' turns back into the item, live, when the item
 * reaches the device (a guest's item moved into the account by a sign-in in another tab; a member
 * added back to its campaign). Desktop project only: no screen size changes it.
 */

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  test.setTimeout(180_000);
});

test('a removed member’s open task page shows the task again, without a reload, once they are added back', async ({
  page,
  baseURL,
}) => {
  const ownerPhone = freshPhone();
  const memberPhone = freshPhone();
  const owner = await ApiUser.signIn(baseURL!, ownerPhone, 'Olga Owner');
  try {
    const member = await Sharing.signedIn(page, memberPhone, 'Mia Member');
    const me = (await (await page.request.get('/api/me')).json()) as { user: { id: number } };
    await owner.post('/api/contacts/sync', { contacts: [memberPhone] });
    await member.post('/api/contacts/sync', { contacts: [ownerPhone] });
    const title = uniqueTitle('Harvest fair');
    const taskTitle = uniqueTitle('Hire the tent');
    const campaign = await owner.post<{ id: number }>('/api/items', { title, type: 'campaign' });
    const task = await owner.post<{ id: number }>('/api/items', {
      title: taskTitle,
      type: 'task',
      parent_id: campaign.id,
    });
    const add = () =>
      owner.post(`/api/campaigns/${campaign.id}/members`, { user_id: me.user.id, role: 'editor' });
    await add();

    await member.goto(`/tasks/${task.id}`);
    await expect(member.heading(taskTitle)).toBeVisible({ timeout: 20_000 });

    await owner.delete(`/api/campaigns/${campaign.id}/members/${me.user.id}`);
    await expect(member.main.getByText('Task not found')).toBeVisible({ timeout: 20_000 });

    await add();
    await expect(member.heading(taskTitle)).toBeVisible({ timeout: 20_000 });
    await expect(member.main.getByText('Task not found')).toHaveCount(0);
  } finally {
    await owner.dispose();
  }
});

test('a guest’s open task page shows the task, at its new address, once a sign-in in another tab has moved it up', async ({
  page,
  baseURL,
}) => {
  // Someone's items first, so the server's ids are not the guest's own 1, 2, 3.
  const someone = await ApiUser.signIn(baseURL!, freshPhone(), 'Sam Someone');
  try {
    for (const n of [1, 2, 3]) await someone.post('/api/items', { title: `Filler ${n}`, type: 'todo' });
  } finally {
    await someone.dispose();
  }
  const guest = await PolishPage.asGuest(page);
  const title = uniqueTitle('Water the plants');
  await guest.quickAdd('task', title);
  await guest.main.getByRole('link', { name: title }).first().click();
  await expect(guest.heading(title)).toBeVisible();
  const guestAddress = new URL(page.url()).pathname;
  expect(guestAddress).toMatch(/^\/tasks\/\d+$/);

  const other = new PolishPage(await page.context().newPage());
  await other.signIn(freshPhone(), 'Gus Guest');

  // The first tab follows its task: the server's id in the address, the task on the page.
  await expect(page).toHaveURL(/\/tasks\/\d+$/);
  await expect(async () => {
    expect(new URL(page.url()).pathname).not.toBe(guestAddress);
  }).toPass({ timeout: 30_000 });
  await expect(guest.heading(title)).toBeVisible();
  await expect(guest.main.getByText('Task not found')).toHaveCount(0);
});

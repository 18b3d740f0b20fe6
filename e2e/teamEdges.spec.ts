import { expect, type TestInfo, test } from '@playwright/test';
import { ApiUser } from './pages/Collab';
import { freshPhone, uniqueTitle } from './pages/Outpost';
import { PolishPage } from './pages/Polish';
import { Sharing } from './pages/Sharing';
import { TrustPage } from './pages/Trust';

/**
 * The edges of team life (issue 50): a name asked in the tutorial and changed in Preferences, the
 * Share dialog leading with its invite link, and the calendar link shown again with a warned
 * 'New link'. Desktop project only: the pictures take the phone's size inside the tests.
 */

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
  test.setTimeout(240_000);
});

async function pictures(app: Sharing, testInfo: TestInfo, name: string) {
  await app.shots(testInfo, `team-${name}`, { fullPage: false });
  await app.page.setViewportSize({ width: 1280, height: 800 });
  await app.setTheme('light');
}

test('N12, N13: the tutorial asks a name, and Preferences changes it for everyone', async ({
  page,
}, testInfo) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const tour = new PolishPage(page);
  await tour.openTutorial();
  await tour.chooseAccount('Sign In');
  await tour.tutorial.getByLabel('Phone number').fill(freshPhone());
  await tour.tutorial.getByLabel('Your name (optional)').fill('Ada Tutorial');
  await tour.tutorial.getByRole('button', { name: 'Next' }).click();
  await tour.tutorial.getByLabel('Verification code').fill('123456');
  await tour.tutorial.getByRole('button', { name: 'Next' }).click();
  await expect(tour.tutorial.getByRole('button', { name: 'Skip for Now' })).toBeVisible();
  const me = await page.request.get('/api/me');
  expect(((await me.json()) as { user: { name: string } }).user.name).toBe('Ada Tutorial');
  await tour.tutorial.getByRole('button', { name: 'Skip for Now' }).click();
  for (let step = 6; step <= 9; step++) {
    await expect(tour.tutorial.getByText(`Step ${step} of 9`)).toBeVisible();
    await tour.tutorial.getByRole('button', { name: step === 9 ? 'Get Started' : 'Next' }).click();
  }
  await expect(tour.tutorial).toHaveCount(0);

  const app = new Sharing(page);
  await app.goto('/preferences');
  const section = page.getByRole('region', { name: 'Your name' });
  const field = section.getByLabel('Name', { exact: true });
  await expect(field).toHaveValue('Ada Tutorial');
  await field.fill('   ');
  await section.getByRole('button', { name: 'Save name' }).isDisabled();
  await field.fill('Ada Lovelace');
  await section.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name saved').first()).toBeVisible();
  const after = await page.request.get('/api/me');
  expect(((await after.json()) as { user: { name: string } }).user.name).toBe('Ada Lovelace');
  await section.scrollIntoViewIfNeeded();
  await pictures(app, testInfo, 'preferences-name');
});

test('the Share dialog leads with Invite by link and says why someone is not in the picker', async ({
  page,
}, testInfo) => {
  const owner = await Sharing.signedIn(page, freshPhone(), 'Olive Owner');
  const title = uniqueTitle('Team picnic');
  const campaign = await owner.post<{ id: number }>('/api/items', { title, type: 'campaign' });
  await owner.openCampaign(campaign.id, title);
  await owner.openShare();
  const headings = await owner.shareDialog.getByRole('heading', { level: 3 }).allTextContents();
  expect(headings[0]).toBe('Invite by link');
  await expect(owner.shareDialog.getByText(/both have each other’s number in your contacts/)).toBeVisible();
  await expect(owner.shareDialog.getByRole('button', { name: 'Create link' })).toBeVisible();
  await pictures(owner, testInfo, 'share-dialog');
});

test('F9, F10: the device that made the calendar link shows it with Copy, another says since when; a new link asks first and stops the old', async ({
  page,
  browser,
}, testInfo) => {
  const phone = freshPhone();
  const app = await Sharing.signedIn(page, phone, 'Cal Keeper');
  await app.goto('/preferences');
  const section = page.getByRole('region', { name: 'Calendar' });
  await section.getByRole('button', { name: 'Subscribe in your calendar' }).click();
  const field = section.getByLabel('Your calendar link');
  await expect(field).toHaveValue(/\/cal\/[A-Za-z0-9_-]{22}\.ics$/);
  const url = await field.inputValue();
  // The server answers whether a link is active and since when, never the secret (F9).
  const state = (await (await page.request.get('/api/calendar/token')).json()) as Record<string, unknown>;
  expect(Object.keys(state).sort()).toEqual(['active', 'created_at']);
  expect(JSON.stringify(state)).not.toContain(new URL(url).pathname);

  // This device made it: it shows the link again after a reload.
  await page.reload();
  await expect(section.getByLabel('Your calendar link')).toHaveValue(url, { timeout: 15_000 });
  await expect(section.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Subscribe in your calendar' })).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await pictures(app, testInfo, 'preferences-calendar');

  // Another device of the same person: a link is active since today, its URL is not there.
  const elsewhere = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const other = await elsewhere.newPage();
  const second = await Sharing.signedIn(other, phone, 'Cal Keeper');
  await second.goto('/preferences');
  const otherSection = other.getByRole('region', { name: 'Calendar' });
  await expect(otherSection.getByText(/^A calendar link is active since /)).toBeVisible({ timeout: 15_000 });
  await expect(otherSection.getByLabel('Your calendar link')).toHaveCount(0);
  await expect(otherSection.getByRole('button', { name: 'Subscribe in your calendar' })).toHaveCount(0);
  await otherSection.scrollIntoViewIfNeeded();
  await pictures(second, testInfo, 'preferences-calendar-elsewhere');
  await otherSection.getByRole('button', { name: 'New link…' }).click();
  await expect(other.getByRole('alertdialog', { name: 'Make a new calendar link?' })).toContainText(
    'The link in use stops working',
  );
  await other.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await elsewhere.close();

  await section.getByRole('button', { name: 'New link…' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Make a new calendar link?' });
  await expect(ask).toContainText('The link in use stops working');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(field).toHaveValue(url);
  expect((await page.request.get(url)).status()).toBe(200);

  await section.getByRole('button', { name: 'New link…' }).click();
  await ask.getByRole('button', { name: 'Make a new link' }).click();
  await expect(field).not.toHaveValue(url);
  const renewed = await field.inputValue();
  expect((await page.request.get(url)).status()).toBe(404);
  expect((await page.request.get(renewed)).status()).toBe(200);

  // A logout takes the kept URL with it: signed in again, the device no longer shows it.
  const trust = new TrustPage(page);
  await trust.pressLogOut();
  await expect(trust.guestMarker()).toBeVisible({ timeout: 15_000 });
  await app.signIn(phone, 'Cal Keeper');
  await app.goto('/preferences');
  await expect(section.getByText(/^A calendar link is active since /)).toBeVisible({ timeout: 15_000 });
  await expect(section.getByLabel('Your calendar link')).toHaveCount(0);
});

test('an editor is offered Delete only on what they created, the owner on everything; the refusal names its cause', async ({
  page,
  baseURL,
}, testInfo) => {
  const editorPhone = freshPhone();
  const editor = await Sharing.signedIn(page, editorPhone, 'Eddie Editor');
  const owner = await ApiUser.signIn(baseURL!, freshPhone(), 'Olive Owner');
  await owner.post('/api/contacts/sync', { contacts: [editorPhone] });
  await editor.post('/api/contacts/sync', { contacts: [owner.phone] });
  const me = (await (await page.request.get('/api/me')).json()) as { user: { id: number } };
  const title = uniqueTitle('Spring fair');
  const campaign = await owner.post<{ id: number }>('/api/items', { title, type: 'campaign' });
  await owner.post(`/api/campaigns/${campaign.id}/members`, { user_id: me.user.id, role: 'editor' });
  const theirs = uniqueTitle('Book the hall');
  const ownerTask = await owner.post<{ id: number }>('/api/items', {
    title: theirs,
    type: 'task',
    parent_id: campaign.id,
  });
  const mine = uniqueTitle('Print posters');
  await editor.post('/api/items', { title: mine, type: 'task', parent_id: campaign.id });

  await editor.openCampaign(campaign.id, title);
  const theirRow = editor.row(theirs);
  const myRow = editor.row(mine);
  await expect(theirRow).toBeVisible({ timeout: 20_000 });
  await expect(myRow).toBeVisible({ timeout: 20_000 });
  await theirRow.hover();
  await expect(theirRow.getByRole('button', { name: `Delete ${theirs}` })).toHaveCount(0);
  await myRow.hover();
  await expect(myRow.getByRole('button', { name: `Delete ${mine}` })).toBeVisible();

  // The menu: everything else an editor may do, no Delete on the owner's task.
  await theirRow.getByRole('button', { name: `More actions for ${theirs}` }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await myRow.getByRole('button', { name: `More actions for ${mine}` }).click();
  await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Delete' })).toBeVisible();
  await page.keyboard.press('Escape');
  await pictures(editor, testInfo, 'editor-row-actions');

  // The server's refusal, if asked anyway, says why.
  const { cookies } = await page.context().storageState();
  const xsrf = decodeURIComponent(cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  const refused = await page.request.delete(`/api/items/${ownerTask.id}`, {
    headers: { 'X-XSRF-TOKEN': xsrf },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toMatch(/only items you created/i);

  // The owner deletes anything in their campaign: the editor's task shows Delete for them.
  const ownerPage = await page.context().browser()!.newPage({ baseURL: baseURL! });
  const ownerApp = await Sharing.signedIn(ownerPage, owner.phone, 'Olive Owner');
  await ownerApp.openCampaign(campaign.id, title);
  const editorsRow = ownerApp.row(mine);
  await expect(editorsRow).toBeVisible({ timeout: 20_000 });
  await editorsRow.hover();
  await expect(editorsRow.getByRole('button', { name: `Delete ${mine}` })).toBeVisible();
  await ownerPage.close();
});

test('Ctrl+Z takes back a new todo under a finished campaign: the campaign is completed again, no conflict, not in Trash', async ({
  page,
}) => {
  const app = await Sharing.signedIn(page, freshPhone(), 'Una Undo');
  const title = uniqueTitle('Finished fair');
  const campaign = await app.post<{ id: number }>('/api/items', { title, type: 'campaign' });
  const task = await app.post<{ id: number }>('/api/items', {
    title: uniqueTitle('Hall'),
    type: 'task',
    parent_id: campaign.id,
  });
  await app.patch(`/api/items/${task.id}`, { status: 'completed' });
  await app.openCampaign(campaign.id, title);
  const heading = app.main.locator('header').filter({ has: app.heading(title) });
  await expect(heading.getByText('Completed', { exact: true })).toBeVisible({ timeout: 20_000 });

  const todo = uniqueTitle('Posters');
  await app.quickAdd('todo', todo);
  await expect(app.row(todo)).toBeVisible();
  await expect(heading.getByText('In progress', { exact: true })).toBeVisible();
  // Let the create reach the server first: the undo is then a delete there too.
  await expect(async () => {
    const found = (await (
      await page.request.get(`/api/items?parent_id=${campaign.id}&type=todo`)
    ).json()) as {
      data: { title: string }[];
    };
    expect(found.data.map((i) => i.title)).toContain(todo);
  }).toPass({ timeout: 20_000 });

  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('Control+z');
  await expect(app.row(todo)).toHaveCount(0);
  await expect(heading.getByText('Completed', { exact: true })).toBeVisible();
  await expect(async () => {
    const server = (await (await page.request.get(`/api/items/${campaign.id}`)).json()) as { status: string };
    expect(server.status).toBe('completed');
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  }).toPass({ timeout: 20_000 });
  await page.waitForTimeout(1_500);
  await expect(page.getByRole('dialog', { name: /conflict/i })).toHaveCount(0);
  await expect(heading.getByText('Completed', { exact: true })).toBeVisible();

  await app.goto('/preferences');
  const trash = app.main.getByRole('region', { name: 'Trash', exact: true });
  // Nothing was deleted: the undone creation is not listed as a deletion, here or from the server.
  await expect(trash.getByTestId('trash-empty')).toBeVisible({ timeout: 15_000 });
  await expect(trash.getByText(todo, { exact: true })).toHaveCount(0);
});

test('Activity tells membership changes in words: whom, and the role', async ({ page, baseURL }) => {
  const ownerPhone = freshPhone();
  const owner = await Sharing.signedIn(page, ownerPhone, 'Olive Owner');
  const member = await ApiUser.signIn(baseURL!, freshPhone(), 'Mia Member');
  await member.post('/api/contacts/sync', { contacts: [ownerPhone] });
  await owner.post('/api/contacts/sync', { contacts: [member.phone] });
  const title = uniqueTitle('Shared trip');
  const campaign = await owner.post<{ id: number }>('/api/items', { title, type: 'campaign' });
  await owner.post(`/api/campaigns/${campaign.id}/members`, { user_id: member.id, role: 'viewer' });
  await owner.patch(`/api/campaigns/${campaign.id}/members/${member.id}`, { role: 'editor' });

  await owner.openActivity(campaign.id);
  await expect(owner.activity.getByText(/Olive Owner made Mia Member an editor of campaign/)).toBeVisible({
    timeout: 15_000,
  });
  await expect(
    owner.activity.getByText(/Olive Owner added Mia Member as a viewer of campaign/),
  ).toBeVisible();
  await expect(owner.activity.getByText(/role_changed|member_added|\{"id"/)).toHaveCount(0);
  const inbox = (await (await member.api.get('/api/notifications')).json()) as { data: { text: string }[] };
  expect(inbox.data[0]?.text).toBe(`Olive Owner made you an editor of campaign “${title}”`);
});

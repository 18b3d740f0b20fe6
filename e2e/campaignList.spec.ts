import { expect, type Page, test } from '@playwright/test';
import { freshPhone, Outpost, uniqueTitle } from './pages/Outpost';

// Issue 12: the signed-in campaign list is a server-only list; it must follow the same change signal
// as the device's data, so a campaign just created shows there without remounting the page.

async function signedIn(page: Page): Promise<Outpost> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.signIn(freshPhone(), 'Campaign Lister');
  await app.expectHomeAfterSignIn();
  return app;
}

const EMPTY = 'No campaigns yet! Create a campaign to organize your big goals.';

/** The campaign list's cards (server pages when signed in and online). */
const campaignList = (app: Outpost) => app.main.getByRole('list', { name: 'Campaigns' });

test('signed in: a campaign created on /campaigns or from the Create dialog shows in the list without a remount', async ({
  page,
}) => {
  const app = await signedIn(page);
  const first = uniqueTitle('Listed campaign');
  const second = uniqueTitle('Dialog campaign');

  await test.step('the list is on screen (its server page cached)', async () => {
    await app.goto('/campaigns');
    await expect(app.heading('Campaigns')).toBeVisible();
    await expect(page.getByText(EMPTY)).toBeVisible();
  });

  await test.step("the page's own quick-add: the new campaign joins the list without a remount", async () => {
    await app.quickAdd('campaign', first, 'Add campaign');
    await expect(campaignList(app).getByText(first, { exact: true })).toBeVisible();
  });

  await test.step('the Create New Item dialog (phones) or quick-add again, still on /campaigns', async () => {
    if (app.isPhone) await app.createWithDialog('campaign', second);
    else await app.quickAdd('campaign', second, 'Add campaign');
    await expect(campaignList(app).getByText(second, { exact: true })).toBeVisible();
    await expect(campaignList(app).getByText(first, { exact: true })).toBeVisible();
  });
});

test('signed in: a campaign another device creates shows in the open list (server changed event)', async ({
  page,
}) => {
  const app = await signedIn(page);
  const title = uniqueTitle('Remote campaign');
  await app.goto('/campaigns');
  await expect(page.getByText(EMPTY)).toBeVisible();
  // The same account on another device: the API with this session's cookies, outside the page.
  const request = page.context().request;
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await request.post('/api/items', {
    data: { title, type: 'campaign' },
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'Content-Type': 'application/json' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await expect(campaignList(app).getByText(title, { exact: true })).toBeVisible({ timeout: 15_000 });
});

import { expect, test } from '@playwright/test';
import { freshPhone, uniqueTitle } from './pages/Outpost';
import { PolishPage } from './pages/Polish';

// Issue 13, item 15 (polish): statuses in words, no Upgrade dialog over the tutorial, a tutorial closed midway keeps its path, and 'Import from Phone' only where the
// Contact Picker API exists. No viewport changes these, so they run on the desktop (quick-add toasts,
// which do depend on the viewport, are in toasts.spec.ts).

const guest = PolishPage.asGuest;

test('a: statuses read in words — detail fact, campaign card, search result and the row control', async ({
  page,
}, testInfo) => {
  const app = await guest(page);
  const campaign = uniqueTitle('Polish campaign');

  await test.step("a new campaign reads 'Pending'; Start makes it 'In progress'", async () => {
    await app.quickAdd('campaign', campaign);
    const control = app.row(campaign).getByRole('button', { name: `Start: ${campaign}` });
    await expect(control).toHaveAttribute('title', 'Pending · Start');
    await app.open(campaign);
    await expect(app.statusFact()).toContainText('Pending');
    await app.statusButton('Start').click();
    await expect(app.statusFact()).toContainText('In progress');
    expect(await app.statusFact().textContent()).not.toMatch(/in progress|in_progress/);
    await app.captureBoth(testInfo, 'status-detail');
  });

  await test.step("the campaign card says 'Status: In progress'", async () => {
    await app.goto('/campaigns');
    await expect(app.heading('Campaigns')).toBeVisible();
    const card = app.main.getByText('Status: In progress', { exact: true });
    await expect(card.first()).toBeVisible();
    await expect(app.main.getByText(/Status: in[ _]progress/)).toHaveCount(0);
    await app.captureBoth(testInfo, 'status-campaigns');
  });

  await test.step("a search result says 'In progress'", async () => {
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search items' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Search items' }).fill(campaign);
    const option = dialog.getByRole('option').filter({ hasText: campaign }).first();
    await expect(option).toContainText('In progress');
    expect(await option.textContent()).not.toMatch(/in progress|in_progress/);
  });
});

test("c: signing in from the tutorial on a fresh device does not stack 'Upgrading Your Account' on it", async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new PolishPage(page);
  await app.openTutorial();
  await app.chooseAccount('Sign In');
  await expect(app.tutorial.getByText('Step 3 of 9')).toBeVisible();
  await app.tutorial.getByLabel('Phone number').fill(freshPhone());
  await app.tutorial.getByRole('button', { name: 'Next' }).click();
  await expect(app.tutorial.getByText('Step 4 of 9')).toBeVisible();
  await app.tutorial.getByLabel('Verification code').fill('123456');
  await app.tutorial.getByRole('button', { name: 'Next' }).click();
  await expect(app.tutorial.getByText('Step 5 of 9')).toBeVisible();
  // Signed in: the tutorial is the only dialog; the upgrade waits until it closes.
  await page.waitForTimeout(1500);
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(page.getByText('Upgrading Your Account')).toHaveCount(0);

  await test.step("e (onboarding): 'Import from Phone' only with the Contact Picker API", async () => {
    const supported = await app.hasContactPicker();
    await expect(app.tutorial.getByRole('button', { name: 'Import from Phone' })).toHaveCount(
      supported ? 1 : 0,
    );
    await expect(app.tutorial.getByRole('button', { name: 'Import from CSV' })).toBeVisible();
  });

  await app.tutorial.getByRole('button', { name: 'Skip for Now' }).click();
  for (let step = 6; step <= 9; step++) {
    await expect(app.tutorial.getByText(`Step ${step} of 9`)).toBeVisible();
    await app.tutorial.getByRole('button', { name: step === 9 ? 'Get Started' : 'Next' }).click();
  }
  await app.expectHomeAfterSignIn();
  // Once the tutorial is gone, the celebration may show and close by itself; never both at once.
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 10_000 });
});

test('d: a tutorial closed midway remembers the chosen path — on reload and on View Tutorial', async ({
  page,
}, testInfo) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new PolishPage(page);
  await app.openTutorial();
  await app.chooseAccount('Sign In');
  await expect(app.tutorial.getByText('Step 3 of 9')).toBeVisible();
  await expect(app.tutorial.getByRole('heading', { name: "What's your phone number?" })).toBeVisible();

  await test.step('a reload resumes Step 3 of 9 on the Sign In path', async () => {
    await page.reload();
    await expect(app.tutorial.getByText('Step 3 of 9')).toBeVisible();
    await expect(app.tutorial.getByRole('heading', { name: "What's your phone number?" })).toBeVisible();
    await app.captureBoth(testInfo, 'tutorial-resumed');
  });

  await test.step('closed midway, then View Tutorial: the same step of the same path', async () => {
    await page.keyboard.press('Escape');
    await expect(app.tutorial).toHaveCount(0);
    await expect(app.heading('Home')).toBeVisible();
    await app.gotoPreferences();
    await app.main.getByRole('button', { name: 'View Tutorial' }).click();
    await expect(app.tutorial.getByText('Step 3 of 9')).toBeVisible();
    await app.tutorial.getByRole('button', { name: 'Previous' }).click();
    await expect(app.tutorial.getByRole('radio', { name: /Sign In/ })).toBeChecked();
  });
});

test("e: Contacts offers 'Import from Phone' only where the Contact Picker API exists", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new PolishPage(page);
  await app.skipOnboarding();
  await app.signIn(freshPhone(), 'Picker Tester');
  await app.goto('/contacts');
  await expect(app.heading('Contacts')).toBeVisible();
  const importFromPhone = app.main.getByRole('button', { name: 'Import from Phone' });
  await expect(app.main.getByRole('button', { name: 'Import from CSV' })).toBeVisible();
  await expect(importFromPhone).toHaveCount((await app.hasContactPicker()) ? 1 : 0);

  await app.fakeContactPicker();
  await page.reload();
  await expect(app.heading('Contacts')).toBeVisible();
  await expect(importFromPhone).toBeVisible();
  expect(await app.seriousA11yViolations()).toEqual([]);
});

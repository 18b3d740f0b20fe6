import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import type { A11yViolation, Theme } from './pages/AppPage';
import { freshPhone, Outpost, uniqueTitle } from './pages/Outpost';

/** One screen to check: where it is and what shows once it has loaded. */
interface Screen {
  name: string;
  route: string;
  ready: (page: Page) => Locator;
}

const h1 = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });

function screensFor(campaignId: string, campaign: string, taskId: string, task: string): Screen[] {
  return [
    { name: 'home', route: '/', ready: h1('Home') },
    { name: 'my-list', route: '/my-list', ready: h1('My List') },
    { name: 'queue', route: '/queue', ready: h1('Queue') },
    { name: 'active', route: '/active', ready: h1('Active') },
    { name: 'completed', route: '/completed', ready: h1('Completed') },
    { name: 'campaigns', route: '/campaigns', ready: (page) => page.getByRole('link', { name: campaign }) },
    { name: 'campaign', route: `/campaigns/${campaignId}`, ready: h1(new RegExp(campaign)) },
    {
      name: 'campaign-activity',
      route: `/campaigns/${campaignId}?tab=activity`,
      ready: (page) => page.getByRole('tabpanel', { name: 'Activity' }),
    },
    { name: 'task', route: `/tasks/${taskId}`, ready: h1(new RegExp(task)) },
    { name: 'contacts', route: '/contacts', ready: h1('Contacts') },
    { name: 'notifications', route: '/notifications', ready: h1('Recent Notifications') },
    { name: 'preferences', route: '/preferences', ready: h1('Preferences') },
    {
      name: 'onboarding',
      route: '/onboarding',
      ready: (page) => page.getByRole('dialog', { name: 'Welcome' }),
    },
    { name: 'login', route: '/login', ready: h1('Sign In to Outpost') },
    { name: 'not-found', route: '/no/such/page', ready: (page) => page.locator('main') },
  ];
}

/** Screens whose content changes with a session: the header's account, contacts, sync settings. */
const SIGNED_IN_DIFFERS = ['home', 'campaign', 'contacts', 'preferences', 'login'];

function describeViolations(found: Record<string, A11yViolation[]>): string {
  return Object.entries(found)
    .filter(([, violations]) => violations.length > 0)
    .map(
      ([screen, violations]) =>
        `${screen}:\n${violations
          .map((v) => `  [${v.impact}] ${v.id}: ${v.help}\n${v.targets.map((t) => `    - ${t}`).join('\n')}`)
          .join('\n')}`,
    )
    .join('\n');
}

/** Adds a campaign, a task in it and a todo in the task, and returns where they live. */
async function seed(app: Outpost) {
  const campaign = uniqueTitle('Screens campaign');
  const task = uniqueTitle('Screens task');
  await app.goto('/');
  await app.quickAdd('campaign', campaign);
  await app.row(campaign).getByRole('link', { name: campaign }).click();
  await expect(app.page).toHaveURL(/\/campaigns\/-?\d+$/);
  // The address changes before the campaign's screen replaces Home (its chunk may still be loading):
  // a quick add typed before then goes into Home's card (CI saw the task land there).
  await expect(app.heading(new RegExp(campaign))).toBeVisible();
  const campaignId = app.page.url().split('/').pop() ?? '';
  await app.quickAdd('task', task);
  await app.row(task).getByRole('link', { name: task }).click();
  await expect(app.page).toHaveURL(/\/tasks\/-?\d+$/);
  await expect(app.heading(new RegExp(task))).toBeVisible();
  const taskId = app.page.url().split('/').pop() ?? '';
  await app.quickAdd('todo', uniqueTitle('Screens todo'), 'Add todo');
  return { campaign, campaignId, task, taskId };
}

/**
 * Photographs and audits the page as it is, in each theme: the app follows the system's colour scheme
 * live (theme System), so one visit serves both pictures where a second would seed and load it again.
 */
async function captureBothThemes(
  app: Outpost,
  testInfo: TestInfo,
  themes: readonly Theme[],
  prefix: string,
  name: string,
  found: Record<string, A11yViolation[]>,
) {
  const html = app.page.locator('html');
  for (const theme of themes) {
    await app.page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    if (theme === 'dark') await expect(html).toHaveClass(/\bdark\b/);
    else await expect(html).not.toHaveClass(/\bdark\b/);
    found[`${theme} ${name}`] = await app.captureScreen(testInfo, `${prefix}-${theme}-${name}`);
  }
}

for (const signedIn of [false, true]) {
  const who = signedIn ? 'signed in' : 'guest';
  test(`every screen (${who}, light and dark): screenshot and no serious axe violations`, async ({
    page,
  }, testInfo) => {
    // Many pages, each audited and photographed twice: minutes with two workers on CI's two cores.
    test.setTimeout(signedIn ? 240_000 : 400_000);
    // Signed in, five screens differ from a guest's; their dark pictures on the desktop suffice.
    const themes: readonly Theme[] =
      signedIn && testInfo.project.name === 'phone' ? ['light'] : ['light', 'dark'];
    const app = new Outpost(page);
    await app.skipOnboarding();
    if (signedIn) await app.signIn(freshPhone(), 'Screens Tester');
    const { campaign, campaignId, task, taskId } = await seed(app);
    const prefix = signedIn ? 'user' : 'guest';
    const found: Record<string, A11yViolation[]> = {};

    // A guest sees every screen; signed in, only the screens that differ are checked again.
    const screens = screensFor(campaignId, campaign, taskId, task).filter(
      (screen) => !signedIn || SIGNED_IN_DIFFERS.includes(screen.name),
    );
    for (const screen of screens) {
      await test.step(screen.name, async () => {
        await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
        await app.goto(screen.route);
        await expect(screen.ready(page)).toBeVisible();
        // Skeletons give way to content before the picture and the audit.
        await expect(page.getByText(/^Loading .*\.\.\.$/)).toHaveCount(0);
        await captureBothThemes(app, testInfo, themes, prefix, screen.name, found);
      });
    }

    await test.step('search dialog', async () => {
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
      await app.goto('/');
      await expect(app.heading('Home')).toBeVisible();
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Search items' });
      await dialog.getByRole('combobox').fill(campaign.slice(0, 12));
      await expect(dialog.getByRole('option').first()).toBeVisible();
      await captureBothThemes(app, testInfo, themes, prefix, 'search-dialog', found);
      await page.keyboard.press('Escape');
    });

    if (app.isPhone) {
      await test.step('create dialog and account sheet', async () => {
        await page.getByRole('button', { name: 'Create new item' }).click();
        await expect(page.getByRole('dialog', { name: 'Create New Item' })).toBeVisible();
        await captureBothThemes(app, testInfo, themes, prefix, 'create-dialog', found);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await page.getByRole('button', { name: `More actions for ${campaign}` }).click();
        await expect(page.getByRole('menu')).toBeVisible();
        await captureBothThemes(app, testInfo, themes, prefix, 'row-menu', found);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('menu')).toHaveCount(0);
        await page.getByRole('button', { name: /^Account/ }).click();
        await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible();
        await captureBothThemes(app, testInfo, themes, prefix, 'account-sheet', found);
        await page.keyboard.press('Escape');
      });
    } else if (signedIn) {
      await test.step('account menu', async () => {
        await page.getByRole('button', { name: 'Account menu' }).click();
        await expect(page.getByRole('menu')).toBeVisible();
        await captureBothThemes(app, testInfo, themes, prefix, 'account-menu', found);
        await page.keyboard.press('Escape');
      });
    }

    const report = describeViolations(found);
    if (report)
      console.log(`Serious or critical axe violations (${testInfo.project.name}, ${prefix}):\n${report}`);
    expect(report, report).toBe('');
  });
}

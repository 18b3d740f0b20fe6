import { expect, test } from '@playwright/test';
import { chunkUrl } from './pages/chunks';
import { uniqueTitle } from './pages/Outpost';
import { PolishPage } from './pages/Polish';

// Issue 29: a quick-add's toast says the spec's words and never covers the button pressed next.
// Where a toast goes depends on the viewport, so this runs on the phone and the desktop.

const guest = PolishPage.asGuest;

test("quick-adds in a row share one toast with the spec's 'Item created', clear of the quick-add card", async ({
  page,
}, testInfo) => {
  const polish = await guest(page);

  /** The toast and the quick-add card never share a pixel: the next press lands on the card. */
  async function expectCardClear(form = polish.quickAddForm()) {
    const toast = await polish.toasts.first().boundingBox();
    const add = await form.boundingBox();
    expect(toast && add).toBeTruthy();
    if (!toast || !add) return;
    const apart =
      toast.x >= add.x + add.width ||
      add.x >= toast.x + toast.width ||
      toast.y >= add.y + add.height ||
      add.y >= toast.y + toast.height;
    expect(apart, `toast ${JSON.stringify(toast)} covers the quick-add card ${JSON.stringify(add)}`).toBe(
      true,
    );
  }

  await test.step("one quick-add: the spec's 'Item created'", async () => {
    await polish.quickAdd('todo', uniqueTitle('Batch one'));
    await expect(polish.toasts).toHaveCount(1);
    await expect(polish.toasts.first()).toContainText('Item created');
    await expect(polish.toasts.first()).toContainText('Your todo has been created successfully.');
    await expectCardClear();
  });

  await test.step("two more: still one toast, still the spec's words", async () => {
    await polish.quickAdd('todo', uniqueTitle('Batch two'));
    await polish.quickAdd('todo', uniqueTitle('Batch three'));
    await expect(polish.toasts).toHaveCount(1);
    await expect(polish.toasts.first()).toContainText('Item created');
    await expect(polish.toasts.first()).toContainText('Your todo has been created successfully.');
    await expectCardClear();
    await polish.captureBoth(testInfo, 'toast-batch', false);
    expect(await polish.seriousA11yViolations()).toEqual([]);
  });

  await test.step("a task page's 'Add todo' card, low on the screen, is not covered either", async () => {
    const task = uniqueTitle('Toast task');
    await polish.quickAdd('task', task);
    await polish.row(task).getByRole('link', { name: task }).click();
    await expect(polish.heading(new RegExp(task))).toBeVisible();
    await polish.quickAdd('todo', uniqueTitle('Toast todo'), 'Add todo');
    await expect(polish.toasts).toHaveCount(1);
    await expectCardClear(polish.quickAddForm('Add todo'));
  });
});

test('a toast whose module cannot be fetched shows plainly with its words, the screen stays, and the real one returns online', async ({
  page,
  context,
}) => {
  // As offline on a first visit before a service worker holds the chunk: its fetch fails.
  const toastModule = chunkUrl('src/client/app/ToastRegion.tsx');
  await page.route(toastModule, (route) => route.abort('internetdisconnected'));
  const polish = await guest(page);
  await polish.quickAdd('todo', uniqueTitle('Plain first'));
  await expect(page.locator('[data-plain-toast]')).toBeVisible();
  await expect(polish.toasts.first()).toContainText('Your todo has been created successfully.');
  await expect(polish.heading('Home')).toBeVisible();
  await polish.toasts.first().getByRole('button', { name: 'Dismiss' }).click();
  await expect(polish.toasts).toHaveCount(0);

  // Back online, the region's module is fetched again and the next toast is the real one.
  await page.unroute(toastModule);
  await context.setOffline(true);
  await context.setOffline(false);
  await polish.quickAdd('todo', uniqueTitle('Back online'));
  await expect(polish.toasts.first()).toContainText('Item created');
  await expect(page.locator('[data-plain-toast]')).toHaveCount(0);
});

import { expect, test } from '@playwright/test';
import { dayFromToday, dayWords } from './lib/days';
import { Outpost, uniqueTitle } from './pages/Outpost';
import { Timeline } from './pages/Timeline';

// Issue 53 part 4 (ARCHITECTURE §5 'Calendar and Timeline'): a timeline bar dragged whole moves, by a
// finger on a phone and by the mouse on a desktop; a finger swiping up or down scrolls the page instead.

/** The week scale, the one the page opens on: pixels a day takes. */
const DAY = 14;

test('Timeline: a whole bar dragged by finger (phone) or mouse (desktop) moves both its dates by the days it went', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const touch = testInfo.project.use.hasTouch === true;
  const app = new Outpost(page);
  const timeline = new Timeline(app);
  await app.skipOnboarding();
  const campaign = uniqueTitle('Harbour works');
  const task = uniqueTitle('Pour the slab');
  // Rows below the task, so the page is long enough to scroll on a phone.
  const others = Array.from({ length: 14 }, () => ({
    title: uniqueTitle('Inspect the pier'),
    start_date: dayFromToday(2),
    due_date: dayFromToday(4),
  }));
  await timeline.importCampaign(campaign, [
    { title: task, start_date: dayFromToday(1), due_date: dayFromToday(3) },
    ...others,
  ]);
  await app.goto('/timeline');
  await expect(app.heading('Timeline')).toBeVisible();
  const bar = timeline.bar(task);
  const span = (from: number, to: number) =>
    `${task}, ${dayWords(dayFromToday(from))} to ${dayWords(dayFromToday(to))}`;
  await expect(bar).toHaveAttribute('aria-label', span(1, 3));
  const drag = (dx: number, dy = 0) =>
    touch ? timeline.dragByTouch(bar, dx, dy) : timeline.dragByMouse(bar, dx, dy);

  // Three days on: the start and the due date both move, stored and announced.
  await drag(3 * DAY + 3);
  await expect(bar).toHaveAttribute('aria-label', span(4, 6));
  await expect(timeline.announcement).toHaveText(
    `${task}: Moved to ${dayWords(dayFromToday(4))} to ${dayWords(dayFromToday(6))}.`,
  );
  // The drop opened nothing: still the timeline.
  await expect(app.heading('Timeline')).toBeVisible();

  // Two days back, a little off the horizontal as a finger goes.
  await drag(-2 * DAY - 2, 4);
  await expect(bar).toHaveAttribute('aria-label', span(2, 4));
  await page.reload();
  await expect(bar).toHaveAttribute('aria-label', span(2, 4));

  if (touch) {
    // A finger swiping up over the bar scrolls the page and leaves the bar where it is.
    const before = await timeline.scrolledDown();
    await timeline.dragByTouch(bar, 2, -220);
    await expect.poll(() => timeline.scrolledDown()).toBeGreaterThan(before);
    await page.waitForTimeout(300);
    await expect(bar).toHaveAttribute('aria-label', span(2, 4));
  }
});

test('Timeline: an arrow pressed five times quickly moves the bar five days, each key counted', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.use.hasTouch === true, 'a keyboard test: the desktop runs it');
  const app = new Outpost(page);
  const timeline = new Timeline(app);
  await app.skipOnboarding();
  const task = uniqueTitle('Pour the slab');
  await timeline.importCampaign(uniqueTitle('Harbour works'), [
    { title: task, start_date: dayFromToday(1), due_date: dayFromToday(3) },
  ]);
  await app.goto('/timeline');
  const bar = timeline.bar(task);
  const span = (from: number, to: number) =>
    `${task}, ${dayWords(dayFromToday(from))} to ${dayWords(dayFromToday(to))}`;
  await expect(bar).toHaveAttribute('aria-label', span(1, 3));
  await bar.focus();
  // Faster than each write comes back through the device's live read, as a held key repeats.
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect(bar).toHaveAttribute('aria-label', span(6, 8));
  await expect(timeline.announcement).toHaveText(
    `${task}: Moved to ${dayWords(dayFromToday(6))} to ${dayWords(dayFromToday(8))}.`,
  );
  await page.reload();
  await expect(bar).toHaveAttribute('aria-label', span(6, 8));
});

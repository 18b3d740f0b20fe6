import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { dayFromToday, dayWords } from './lib/days';
import { takePictures } from './lib/pictures';
import { Outpost, uniqueTitle } from './pages/Outpost';

// Issue 62: the phone's Calendar opens on its agenda, which starts today and runs forward four weeks
// (it began on the 1st and said 'Nothing due this month' on 29 November with items due the next week).

test('Calendar agenda: a phone opens on the list from today, with the items due in the coming days; Next goes four weeks on', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const app = new Outpost(page);
  await app.skipOnboarding();
  const soon = [1, 3, 5].map((days) => ({
    title: uniqueTitle('Order chairs'),
    due_date: dayFromToday(days),
  }));
  const past = { title: uniqueTitle('Filed away'), due_date: dayFromToday(-3) };
  const later = { title: uniqueTitle('Book the band'), due_date: dayFromToday(40) };
  await app.importItems(
    [...soon, past, later].map((item) => ({
      uuid: randomUUID(),
      parent_uuid: null,
      type: 'todo',
      status: 'pending',
      ...item,
    })),
  );
  await app.goto('/calendar');
  await expect(app.heading('Calendar')).toBeVisible();
  const list = page.getByRole('button', { name: 'List', exact: true });
  if (app.isPhone) await expect(list).toHaveAttribute('aria-pressed', 'true');
  else await list.click();
  const chip = (title: string) => page.locator('[data-item-id][data-own="true"]').filter({ hasText: title });
  for (const item of soon) {
    await expect(chip(item.title)).toBeVisible();
    await expect(chip(item.title)).toHaveAttribute(
      'aria-label',
      `${item.title}, todo, ${dayWords(item.due_date)}`,
    );
  }
  await expect(chip(past.title)).toHaveCount(0);
  await expect(chip(later.title)).toHaveCount(0);
  await expect(page.getByText(/^Nothing due/)).toHaveCount(0);
  expect(await app.seriousA11yViolations()).toEqual([]);
  await takePictures(page, app, 'calendarAgenda', 'agenda', { focus: chip(soon[0]!.title) });

  await page.getByRole('button', { name: 'Next 4 weeks' }).click();
  await expect(chip(later.title)).toBeVisible();
  await expect(chip(soon[0]!.title)).toHaveCount(0);
  await page.getByRole('button', { name: 'Next 4 weeks' }).click();
  await expect(page.getByText(/^Nothing due from /)).toBeVisible();
  await takePictures(page, app, 'calendarAgenda', 'agenda-empty');
  await page.getByRole('button', { name: 'Today', exact: true }).click();
  await expect(chip(soon[0]!.title)).toBeVisible();
});

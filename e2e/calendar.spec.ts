import { expect, test } from '@playwright/test';
import ICAL from 'ical.js';
import { savePicture } from './lib/pictures';
import { Collab } from './pages/Collab';
import { freshPhone, uniqueTitle } from './pages/Outpost';

interface Created {
  id: number;
  uuid: string;
}

test('Preferences › Calendar makes a feed URL that answers text/calendar with the dated items, and a new link kills the old', async ({
  page,
}, testInfo) => {
  const app = await Collab.signedIn(page, freshPhone(), 'Cal Subscriber');
  const title = uniqueTitle('Dentist');
  const dated = await app.post<Created>('/api/items', { title, type: 'todo', due_date: '2031-05-06' });
  await app.post('/api/items', { title: uniqueTitle('Undated'), type: 'todo' });

  await app.goto('/preferences');
  const section = page.getByRole('region', { name: 'Calendar' });
  await section.getByRole('button', { name: 'Subscribe in your calendar' }).click();
  const field = section.getByLabel('Your calendar link');
  await expect(field).toHaveValue(/\/cal\/[A-Za-z0-9_-]{22}\.ics$/);
  const url = await field.inputValue();

  const feed = await page.request.get(url);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toMatch(/^text\/calendar/);
  const calendar = new ICAL.Component(ICAL.parse(await feed.text()));
  const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  expect(events.map((e) => [e.uid, e.summary, e.startDate.toString()])).toEqual([
    [dated.uuid, title, '2031-05-06'],
  ]);

  for (const [width, height, project] of [
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await section.scrollIntoViewIfNeeded();
      await savePicture(page, { path: `test-results/screenshots/calendar/${project}-${scheme}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await app.seriousA11yViolations()).toEqual([]);

  await section.getByRole('button', { name: 'New link…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Make a new link' }).click();
  await expect(field).not.toHaveValue(url);
  expect((await page.request.get(url)).status()).toBe(404);
  expect((await page.request.get(await field.inputValue())).status()).toBe(200);
  await testInfo.attach('calendar-url', { body: 'made and replaced' });
});

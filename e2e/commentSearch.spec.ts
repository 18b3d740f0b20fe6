import { expect, test } from '@playwright/test';
import { CommentSearch } from './pages/CommentSearch';
import { freshPhone, uniqueTitle } from './pages/Outpost';

// Searched offline too: the service worker must serve the app and its chunks.
test.use({ serviceWorkers: 'allow' });

/** A word no other spec writes: a comment holding it is the only thing a search for it can find. */
const uniqueWord = (stem: string) => uniqueTitle(stem).replace(' ', '');

test('comment search: the dialog finds a task by a word in its comment, shows the words and opens it, online and offline', async ({
  page,
}) => {
  // Eight pictures with axe, and an offline round trip, on a shared two-core machine.
  test.setTimeout(180_000);
  const app = await CommentSearch.open(page, freshPhone(), 'Casey Comments');
  const title = uniqueTitle('Ferry tickets');
  const task = await app.post<{ id: number }>('/api/items', { title, type: 'task' });
  const word = uniqueWord('quince');

  await app.goto(`/tasks/${task.id}`);
  await expect(app.heading(title)).toBeVisible();
  await app.waitForOfflineReady();
  await app.addComment(`Ask the harbour office whether the ${word} boat still runs on Sundays in winter`);

  await test.step('online: the server finds it by the comment, with the words around the match', async () => {
    await app.goto('/');
    const option = await app.search(word, title);
    await expect(app.commentLine(option)).toContainText(`Comment: `);
    await expect(app.commentLine(option)).toContainText(word);
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await app.pictures('commentSearch-online');
    await app.openSelected(title);
  });

  await test.step('offline: the device finds it by that comment and by one written offline', async () => {
    await page.context().setOffline(true);
    const later = uniqueWord('medlar');
    await app.addComment(`Written offline: pack the ${later} jam`);
    await app.goto('/');
    let option = await app.search(later, title);
    await expect(app.commentLine(option)).toHaveText(`Comment: Written offline: pack the ${later} jam`);
    await app.pictures('commentSearch-offline');
    await app.page.keyboard.press('Escape');
    await expect(app.dialog).toBeHidden();
    option = await app.search(word, title);
    await expect(app.commentLine(option)).toContainText(word);
    await app.openSelected(title);
    await page.context().setOffline(false);
  });
});

import { expect, test } from '@playwright/test';
import { pdf, serverAttachments, sha256 } from './pages/AttachmentsPanel';
import { freshPhone, Outpost, QUICK_ADD_TOAST, serverItems, uniqueTitle } from './pages/Outpost';

/**
 * The PWA's share target (issue 64 item 3, ARCHITECTURE §6 'Files offline'): a phone's share sheet
 * posts what is shared to /share; the service worker keeps it and opens quick add with it, and Add
 * creates the item with the files. Before any worker runs, the server answers the post by asking to
 * share again. About the worker and the card, not the layout: the desktop project only.
 */

// The share is taken by the service worker.
test.use({ serviceWorkers: 'allow' });

test.beforeEach(() => {
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
});

test('A15: a file shared to Outpost opens in quick add with its words; Add creates the item with the file', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  const title = uniqueTitle('Broken gate');
  const quote = pdf('Gate quote.pdf');

  await test.step('signed in, the service worker controls the page', async () => {
    await app.signIn(freshPhone(), 'Sharer');
    await app.expectHomeAfterSignIn();
    await app.waitForOfflineReady();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  });

  const landed = await test.step('a share sheet posts the title and a PDF to /share', async () => {
    // What the manifest's share_target makes the browser send: multipart form data to /share.
    const answer = await page.evaluate(
      async ({ title, name, bytes }) => {
        const form = new FormData();
        form.set('title', title);
        form.set('text', '');
        form.set('url', '');
        form.append('files', new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
        const response = await fetch('/share', { method: 'POST', body: form });
        return { url: response.url, redirected: response.redirected, status: response.status };
      },
      { title, name: quote.name, bytes: [...quote.buffer] },
    );
    expect(answer.redirected).toBe(true);
    const url = new URL(answer.url);
    expect(url.pathname).toBe('/');
    expect(url.searchParams.get('share')).toMatch(/^[0-9a-f-]{36}$/);
    return url;
  });

  await test.step('the app opens there: quick add holds the title and the file as a chip', async () => {
    await app.goto(landed.pathname + landed.search);
    const form = app.quickAddForm();
    await expect(form.getByRole('textbox', { name: 'Todo title' })).toHaveValue(title);
    await expect(form.getByRole('list', { name: 'Shared files' })).toContainText(quote.name);
  });

  await test.step('Add: the item is created and its file goes up with the bytes’ sha256', async () => {
    const form = app.quickAddForm();
    await form.getByRole('button', { name: 'Add todo' }).click();
    await expect(app.toast(QUICK_ADD_TOAST)).toBeVisible();
    await expect(form.getByRole('list', { name: 'Shared files' })).toBeHidden();
    // The share has been used: the address no longer names it.
    await expect(page).toHaveURL((url) => !url.searchParams.has('share'));
    let itemId = 0;
    await expect
      .poll(async () => {
        itemId = (await serverItems(page.request)).find((i) => i.title === title)?.id ?? 0;
        return itemId;
      })
      .toBeGreaterThan(0);
    await expect
      .poll(
        async () => (await serverAttachments(page.request, itemId)).map((a) => [a.name, a.size, a.sha256]),
        {
          timeout: 30_000,
        },
      )
      .toEqual([[quote.name, quote.buffer.length, sha256(quote.buffer)]]);
  });

  await test.step('the same share again is gone, and says so', async () => {
    await app.goto(landed.pathname + landed.search);
    await expect(app.toast('That share is gone')).toBeVisible();
  });
});

test('the manifest offers the share target; before any worker runs, the server asks to share again', async ({
  page,
}) => {
  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  expect(((await manifest.json()) as { share_target?: unknown }).share_target).toEqual({
    action: '/share',
    method: 'POST',
    enctype: 'multipart/form-data',
    params: {
      title: 'title',
      text: 'text',
      url: 'url',
      files: [{ name: 'files', accept: ['image/*', 'application/pdf', 'text/*', '*/*'] }],
    },
  });

  // No page of the app has run here: the post reaches the server.
  const answer = await page.request.post('/share', {
    multipart: {
      title: 'Too early',
      files: { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') },
    },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(303);
  expect(answer.headers().location).toBe('/?share=again');

  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/?share=again');
  await expect(app.toast('Share it again')).toBeVisible();
  await expect(page).toHaveURL((url) => !url.searchParams.has('share'));
});

import { readFile } from 'node:fs/promises';
import { type Download, expect, type Page, type Request, test } from '@playwright/test';
import {
  AttachmentsPanel,
  apiItem,
  apiUpload,
  type FileBytes,
  pdf,
  png,
  randomFile,
  serverAttachments,
  sha256,
} from './pages/AttachmentsPanel';
import { ApiUser } from './pages/Collab';
import { escapeUntilGone, freshPhone, Outpost, uniqueTitle } from './pages/Outpost';
import { Sharing } from './pages/Sharing';

/**
 * Files on items in the browser (issue 64, SYNC.md A; DESIGN.md release 5): a file attached offline
 * survives a reload and goes up once; an upload never holds a title edit; drop, paste, the lightbox;
 * a viewer's and a guest's strip; the phone's layout and the pictures. The phone project runs only the
 * layout test, the desktop project the rest (no viewport changes them).
 */

const desktopOnly = () =>
  test.skip(test.info().project.name !== 'desktop', 'runs in the desktop project only');
const phoneOnly = () => test.skip(test.info().project.name !== 'phone', 'runs in the phone project only');

/** Signs a fresh person in, creates a todo on the server and opens its page once the device has it. */
async function signedInTodo(page: Page, name: string, prefix: string) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.signIn(freshPhone(), name);
  await app.expectHomeAfterSignIn();
  const title = uniqueTitle(prefix);
  const item = await apiItem(page.request, { title, type: 'todo' });
  await openTodo(app, item.id, title);
  return { app, files: new AttachmentsPanel(page), item, title };
}

/** Opens a todo's page; the device may learn of a new item a moment after the server made it. */
async function openTodo(app: Outpost, id: number, title: string) {
  await app.goto(`/todos/${id}`);
  await expect(app.heading(new RegExp(title))).toBeVisible({ timeout: 20_000 });
}

/** The bytes of a finished download. */
async function bytesOf(download: Download): Promise<Buffer> {
  const file = await download.path();
  return readFile(file);
}

/** Clicks something that saves a file and answers what was saved. */
async function downloadFrom(page: Page, click: () => Promise<void>): Promise<Download> {
  const download = page.waitForEvent('download');
  await click();
  return download;
}

const isUpload = (request: Request, itemId: number) =>
  request.method() === 'POST' && new URL(request.url()).pathname === `/api/items/${itemId}/attachments`;

test.describe('offline', () => {
  // The app must open from the service worker with the network off.
  test.use({ serviceWorkers: 'allow' });

  test('A1, A5: attach offline, reload offline, reconnect: uploaded once with the right sha256', async ({
    page,
    context,
  }) => {
    desktopOnly();
    test.setTimeout(120_000);
    const { app, files, item } = await signedInTodo(page, 'Offline Attacher', 'Fix the gate');
    const quote = pdf('Gate quote.pdf');
    const uploads: number[] = [];
    page.on('response', (response) => {
      if (isUpload(response.request(), item.id)) uploads.push(response.status());
    });

    await test.step('the service worker holds the app; the network goes off', async () => {
      await app.waitForOfflineReady();
      await context.setOffline(true);
    });

    await test.step('Attach › file chooser: the card waits and opens from the device', async () => {
      await files.attachWithChooser([quote]);
      await expect(files.card(quote.name)).toBeVisible();
      await files.expectWaiting(quote.name);
      await expect(files.card(quote.name)).toContainText('Waiting to upload');
      const saved = await downloadFrom(page, () => files.deviceDownload(quote.name).click());
      expect(saved.suggestedFilename()).toBe(quote.name);
      expect((await bytesOf(saved)).equals(quote.buffer)).toBe(true);
    });

    await test.step('reload offline: the app opens from the worker and the file still waits', async () => {
      await page.reload();
      await expect(app.heading(new RegExp(item.title))).toBeVisible();
      await expect(files.card(quote.name)).toContainText('Waiting to upload');
      expect(uploads).toEqual([]);
    });

    await test.step('reconnect: the file goes up, once, with the bytes’ sha256', async () => {
      await context.setOffline(false);
      await files.expectUploaded(quote.name);
      await expect(files.serverDownload(quote.name)).toHaveAttribute(
        'href',
        /\/api\/attachments\/\d+\/content/,
      );
      const listed = await serverAttachments(page.request, item.id);
      expect(listed).toHaveLength(1);
      const [stored] = listed;
      expect(stored?.name).toBe(quote.name);
      expect(stored?.size).toBe(quote.buffer.length);
      expect(stored?.sha256).toBe(sha256(quote.buffer));
      const content = await page.request.get(stored?.url ?? '');
      expect(content.status()).toBe(200);
      expect((await content.body()).equals(quote.buffer)).toBe(true);
      // One upload answered 201; none stored a second copy.
      expect(uploads.filter((status) => status === 201)).toHaveLength(1);
    });
  });
});

test('A2: an 8 MB upload in flight does not delay a title edit', async ({ page }) => {
  desktopOnly();
  test.setTimeout(120_000);
  const { files, item } = await signedInTodo(page, 'Busy Uploader', 'Survey the site');
  const big = randomFile('site survey.bin', 8 * 1024 * 1024);
  const renamed = uniqueTitle('Survey the north site');

  const at: { uploadStart?: number; uploadEnd?: number; editSent?: number; editAnswered?: number } = {};
  const isEdit = (request: Request) =>
    request.method() === 'PATCH' && new URL(request.url()).pathname === `/api/items/${item.id}`;
  page.on('request', (request) => {
    if (isUpload(request, item.id)) at.uploadStart ??= Date.now();
    if (isEdit(request)) at.editSent ??= Date.now();
  });
  page.on('response', (response) => {
    if (isEdit(response.request())) at.editAnswered ??= Date.now();
  });
  const uploadDone = page.waitForEvent('requestfinished', {
    predicate: (request) => isUpload(request, item.id),
    timeout: 90_000,
  });
  uploadDone.then(() => (at.uploadEnd = Date.now())).catch(() => {});

  // 1 MB/s up: 8 MB takes about eight seconds; downloads are not limited.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });

  await test.step('attach 8 MB; its upload starts', async () => {
    const started = page.waitForRequest((request) => isUpload(request, item.id));
    await files.fileInput.setInputFiles(big);
    await started;
    await expect(files.card(big.name)).toContainText(/Uploading · \d+%/);
  });

  await test.step('edit the title while the upload runs: the PATCH is answered before the upload ends', async () => {
    const answered = page.waitForResponse((response) => isEdit(response.request()));
    await page.getByRole('button', { name: /^Edit title: / }).click();
    const field = page.getByRole('textbox', { name: 'Title', exact: true });
    await field.fill(renamed);
    await field.press('Enter');
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(at.uploadEnd, 'the upload had already finished when the edit was answered').toBeUndefined();
  });

  await test.step('the upload finishes afterwards and both are on the server', async () => {
    await uploadDone;
    await files.expectUploaded(big.name, 60_000);
    const { uploadStart = 0, uploadEnd = 0, editSent = 0, editAnswered = 0 } = at;
    expect(editSent).toBeGreaterThan(uploadStart);
    expect(editAnswered).toBeLessThan(uploadEnd);
    const timings = `upload ${uploadEnd - uploadStart} ms; edit sent ${editSent - uploadStart} ms into it, answered in ${editAnswered - editSent} ms, ${uploadEnd - editAnswered} ms before the upload ended`;
    test.info().annotations.push({ type: 'timings', description: timings });
    console.log(`A2 timings: ${timings}`);
    const server = (await (await page.request.get(`/api/items/${item.id}`)).json()) as { title: string };
    expect(server.title).toBe(renamed);
    const [stored] = await serverAttachments(page.request, item.id);
    expect(stored?.sha256).toBe(sha256(big.buffer));
  });
  await cdp.detach();
});

test('a file dropped on the page shows the outline while dragged and attaches; a pasted image attaches', async ({
  page,
}) => {
  desktopOnly();
  const { files, title } = await signedInTodo(page, 'Drop Tester', 'Paint the fence');
  const notes = {
    name: 'fence notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Two coats, green.\n'),
  };

  await test.step('drag files over the page: the dashed outline says where they go', async () => {
    await expect(files.attachButton).toBeVisible();
    const data = await files.transfer([notes]);
    await files.dragEnter(data);
    await expect(files.dropOutline).toBeVisible();
    await expect(files.dropOutline).toContainText(`Drop files to attach them to “${title}”`);
    await files.drop(data);
    await expect(files.dropOutline).toHaveCount(0);
    await expect(files.card(notes.name)).toBeVisible();
  });

  await test.step('paste an image on the page: it is attached under a dated name', async () => {
    const shot = await png('image.png', [40, 120, 200]);
    await files.paste([shot]);
    const pasted = files.cards.filter({ has: page.locator('[title^="Pasted image "]') });
    await expect(pasted).toHaveCount(1);
    await expect(
      pasted.getByRole('button', { name: /^Open Pasted image \d{4}-\d\d-\d\d \d\d\.\d\d\.png$/ }),
    ).toBeVisible();
  });

  await test.step('both go up', async () => {
    await files.expectUploaded(notes.name);
    await expect(files.cards).toHaveCount(2);
    await expect(files.region).not.toContainText(/Waiting to upload|Uploading/, { timeout: 20_000 });
  });
});

test('the lightbox: an image opens, → shows the next, Esc closes; a PDF card is a download link', async ({
  page,
}) => {
  desktopOnly();
  const { files } = await signedInTodo(page, 'Lightbox Tester', 'Photograph the roof');
  const roof = await png('roof north.png', [200, 60, 40]);
  const gutter = await png('gutter.png', [40, 160, 80], 200, 320);
  const invoice = pdf('Roofer invoice.pdf');
  await files.attachWithChooser([roof, gutter, invoice]);
  for (const file of [roof, gutter, invoice]) await files.expectUploaded(file.name);

  await test.step('an image opens in the lightbox; → steps to the next; Esc closes', async () => {
    // The strip lists newest first: whichever image comes first, → goes to the other.
    const first = files.cards.filter({ has: page.getByRole('button', { name: /^Open / }) }).first();
    const firstName = (await first.getByRole('button', { name: /^Open / }).getAttribute('title')) ?? '';
    const secondName = firstName === roof.name ? gutter.name : roof.name;
    await files.opener(firstName).click();
    await files.expectLightboxShows(firstName);
    await expect(files.lightbox).toContainText('1 of 2');
    await page.keyboard.press('ArrowRight');
    await files.expectLightboxShows(secondName);
    await expect(files.lightbox).toContainText('2 of 2');
    await page.keyboard.press('ArrowLeft');
    await files.expectLightboxShows(firstName);
    await escapeUntilGone(page, files.lightbox);
    await expect(files.opener(firstName)).toBeFocused();
  });

  await test.step('the PDF card is a link that downloads the file', async () => {
    const link = files.serverDownload(invoice.name);
    await expect(link).toHaveAttribute('href', /\/api\/attachments\/\d+\/content/);
    await expect(link).toHaveAttribute('download', invoice.name);
    const saved = await downloadFrom(page, () => link.click());
    expect(saved.suggestedFilename()).toBe(invoice.name);
    expect((await bytesOf(saved)).equals(invoice.buffer)).toBe(true);
  });
});

test('a viewer sees the files and downloads them but has no Attach', async ({ page, baseURL }) => {
  desktopOnly();
  test.setTimeout(120_000);
  const ownerPhone = freshPhone();
  const viewerPhone = freshPhone();
  const owner = await ApiUser.signIn(baseURL ?? '', ownerPhone, 'Olga Owner');
  try {
    const viewer = await Sharing.signedIn(page, viewerPhone, 'Vera Viewer');
    const me = (await (await page.request.get('/api/me')).json()) as { user: { id: number } };
    await owner.post('/api/contacts/sync', { contacts: [viewerPhone] });
    await viewer.post('/api/contacts/sync', { contacts: [ownerPhone] });
    const campaign = await owner.post<{ id: number }>('/api/items', {
      title: uniqueTitle('Harbour fair'),
      type: 'campaign',
    });
    const title = uniqueTitle('Book the stalls');
    const todo = await owner.post<{ id: number }>('/api/items', {
      title,
      type: 'todo',
      parent_id: campaign.id,
    });
    const plan = pdf('Stall plan.pdf');
    const photo = await png('harbour.png', [20, 90, 160]);
    await apiUpload(owner.api, todo.id, plan);
    await apiUpload(owner.api, todo.id, photo);
    await owner.post(`/api/campaigns/${campaign.id}/members`, { user_id: me.user.id, role: 'viewer' });

    await openTodo(viewer, todo.id, title);
    const files = new AttachmentsPanel(page);
    await expect(files.cards).toHaveCount(2, { timeout: 20_000 });
    await expect(files.card(plan.name)).toContainText('Olga Owner');
    await expect(files.attachButton).toHaveCount(0);
    await expect(files.fileInput).toHaveCount(0);
    await expect(files.region.getByRole('button', { name: /^Remove / })).toHaveCount(0);

    const saved = await downloadFrom(page, () => files.serverDownload(plan.name).click());
    expect((await bytesOf(saved)).equals(plan.buffer)).toBe(true);
    await files.opener(photo.name).click();
    await files.expectLightboxShows(photo.name);
    await page.keyboard.press('Escape');

    // A drop or a paste on a viewer's page attaches nothing.
    const data = await files.transfer([randomFile('dropped.bin', 64)]);
    await files.dragEnter(data);
    await expect(files.dropOutline).toHaveCount(0);
    await files.paste([await png('image.png', [0, 0, 0], 8, 8)]);
    await expect(files.cards).toHaveCount(2);
  } finally {
    await owner.dispose();
  }
});

test('a guest attaches and opens files with no server at all', async ({ page }) => {
  desktopOnly();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  await app.goto('/');
  await expect(app.heading('Home')).toBeVisible();
  const title = uniqueTitle('Guest shed');
  await app.quickAdd('todo', title);
  await app.row(title).getByRole('link', { name: title }).click();
  await expect(app.heading(new RegExp(title))).toBeVisible();
  const files = new AttachmentsPanel(page);
  await expect(files.attachButton).toBeVisible();

  const api: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) api.push(`${request.method()} ${request.url()}`);
  });
  const shed = await png('shed.png', [120, 80, 40]);
  const list: FileBytes = { name: 'tools.txt', mimeType: 'text/plain', buffer: Buffer.from('saw, hammer\n') };
  await files.attachWithChooser([shed, list]);
  await expect(files.cards).toHaveCount(2);
  // A guest's file stays on the device (A12): nothing waits for a network.
  await expect(files.region).not.toContainText(/Waiting to upload|Uploading/);

  await files.opener(shed.name).click();
  await files.expectLightboxShows(shed.name);
  await expect(files.lightbox.getByRole('img', { name: shed.name })).toHaveAttribute('src', /^blob:/);
  await page.keyboard.press('Escape');
  const saved = await downloadFrom(page, () => files.deviceDownload(list.name).click());
  expect((await bytesOf(saved)).equals(list.buffer)).toBe(true);
  expect(api).toEqual([]);
});

test('phone: the strip scrolls sideways, Attach and Take photo, pictures with an image, a PDF, a waiting and a failed file', async ({
  page,
  context,
}, testInfo) => {
  phoneOnly();
  test.setTimeout(240_000);
  const { app, files, title } = await signedInTodo(page, 'Phone Attacher', 'Mend the porch');
  const porch = await png('porch before.png', [180, 140, 90], 640, 480);
  const estimate = pdf('Carpenter estimate 2026 final version.pdf');
  const tooBig = randomFile('porch walkthrough.mov', 25 * 1024 * 1024 + 1024, 'video/quicktime');
  const notes: FileBytes = {
    name: 'measurements.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('2.4 m\n'),
  };

  await test.step('Take photo opens the camera; Attach picks any file', async () => {
    await expect(files.attachButton).toBeVisible();
    await expect(files.takePhotoButton).toBeVisible();
    await expect(files.cameraInput).toHaveAttribute('capture', 'environment');
    await expect(files.cameraInput).toHaveAttribute('accept', 'image/*');
    await expect(files.fileInput).not.toHaveAttribute('capture');
    await files.takePhoto(porch);
    await files.attachWithChooser([estimate]);
    await files.expectUploaded(porch.name);
    await files.expectUploaded(estimate.name);
  });

  await test.step('a file over the limit fails with the server’s words and a Retry', async () => {
    await files.fileInput.setInputFiles(tooBig);
    await files.expectFailed(tooBig.name, /larger than the limit of 25/, 60_000);
  });

  await test.step('offline, a file waits to upload', async () => {
    await context.setOffline(true);
    await files.attachWithChooser([notes]);
    await files.expectWaiting(notes.name);
  });

  await test.step('the strip scrolls sideways, each card within the screen’s width', async () => {
    const list = files.list(title);
    await expect(files.cards).toHaveCount(4);
    const sizes = await list.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    for (const name of [porch.name, estimate.name, tooBig.name, notes.name]) {
      const card = files.card(name);
      await card.scrollIntoViewIfNeeded();
      const box = await card.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
    // Remove is a finger's size on a phone (always shown: no hover there).
    const remove = files.card(notes.name).getByRole('button', { name: `Remove ${notes.name}` });
    await expect(remove).toBeVisible();
    const box = await remove.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(24);
    await list.evaluate((el) => el.scrollTo({ left: 0 }));
  });

  await test.step('pictures at 390×844 and 1280×800, light and dark; axe finds nothing serious', async () => {
    await files.dismissToasts();
    await files.region.scrollIntoViewIfNeeded();
    // The screen, not the full page: the phone's bars are fixed and would sit mid-page in a full one.
    await app.shotsInto(testInfo, 'attachments', 'item-files', false);
  });

  await test.step('a picture of the phone’s strip scrolled to its end (the image and the PDF)', async () => {
    // shotsInto ends at the desktop's size.
    await page.setViewportSize({ width: 390, height: 844 });
    await files.list(title).evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect(files.card(porch.name)).toBeInViewport();
    await files.picture(testInfo, 'item-files-strip-end-phone-light');
  });
  await context.setOffline(false);
});

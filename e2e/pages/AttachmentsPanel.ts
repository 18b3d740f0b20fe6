import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type APIRequestContext,
  expect,
  type JSHandle,
  type Locator,
  type Page,
  type TestInfo,
} from '@playwright/test';
import sharp from 'sharp';
import { picturesWanted } from '../lib/pictures';
import { apiWrite } from './Collab';

/** A file as the specs hand it to the page (Playwright's FilePayload). */
export interface FileBytes {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** What GET /api/items/{id}/attachments lists; only the fields the specs read. */
export interface ServerAttachment {
  id: number;
  uuid: string;
  item_id: number;
  name: string;
  type: string;
  size: number;
  sha256: string;
  url: string;
  thumbnail_url?: string;
}

/** Hex SHA-256 of bytes, as the server records a file's. */
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A PNG that looks like a picture (a diagonal blend from one colour to a darker shade), so a thumbnail
 * and the lightbox show something: real image bytes the server sniffs as image/png and makes a
 * thumbnail of.
 */
export async function png(name: string, rgb: [number, number, number], width = 320, height = 200) {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const shade = 1 - 0.6 * ((x / width + y / height) / 2);
      const at = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) raw[at + c] = Math.round((rgb[c] ?? 0) * shade);
    }
  }
  const buffer = await sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer } satisfies FileBytes;
}

/** A small, well-formed one-page PDF (the server reads its type from the '%PDF-' signature). */
export function pdf(name: string): FileBytes {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(body, 'latin1') };
}

/** Random bytes (nothing on the way can compress them) of a given size. */
export function randomFile(name: string, size: number, mimeType = 'application/octet-stream'): FileBytes {
  return { name, mimeType, buffer: randomBytes(size) };
}

/** The item's files as the server lists them to whoever the request's cookies belong to. */
export async function serverAttachments(
  request: APIRequestContext,
  itemId: number,
): Promise<ServerAttachment[]> {
  const response = await request.get(`/api/items/${itemId}/attachments`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: ServerAttachment[] }).data;
}

/** Uploads a file as the API does for any client (multipart, the anti-forgery header). */
export async function apiUpload(
  request: APIRequestContext,
  itemId: number,
  file: FileBytes,
): Promise<ServerAttachment> {
  const { cookies } = await request.storageState();
  const xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await request.post(`/api/items/${itemId}/attachments`, {
    multipart: { file },
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ServerAttachment;
}

/** Creates an item through the API with the request context's session. */
export async function apiItem(
  request: APIRequestContext,
  input: { title: string; type: 'campaign' | 'task' | 'todo'; parent_id?: number },
): Promise<{ id: number; title: string }> {
  return apiWrite(request, 'POST', '/api/items', input);
}

/**
 * The files strip under an item's description (DESIGN.md release 5, src/client/attachments): its
 * cards, Attach and Take photo, the page-wide drop, a pasted image, and the lightbox.
 */
export class AttachmentsPanel {
  /** The strip's section ('Files'); it shows once the device has answered for the item's files. */
  readonly region: Locator;
  readonly attachButton: Locator;
  readonly takePhotoButton: Locator;
  /** The dashed outline over the whole page while files are dragged over it. */
  readonly dropOutline: Locator;
  readonly lightbox: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('region', { name: 'Files', exact: true });
    this.attachButton = this.region.getByRole('button', { name: 'Attach', exact: true });
    this.takePhotoButton = this.region.getByRole('button', { name: 'Take photo', exact: true });
    this.dropOutline = page.locator('[data-drop-zone]');
    this.lightbox = page.getByRole('dialog');
  }

  /** The list of cards, named by the item's title. */
  list(itemTitle: string): Locator {
    return this.region.getByRole('list', { name: `Files of ${itemTitle}` });
  }

  /** All cards in the strip. */
  get cards(): Locator {
    return this.region.locator('li[data-attachment]');
  }

  /** One card, by the file's full name (its link's title holds it uncut). */
  card(name: string): Locator {
    return this.cards.filter({ has: this.page.locator(`[title="${name.replaceAll('"', '\\"')}"]`) });
  }

  /** The card's one link: 'Open name' for an image, 'Download name' for any other file. */
  opener(name: string): Locator {
    return this.card(name).getByRole(/\.(png|jpe?g|gif|webp)$/i.test(name) ? 'button' : 'link', {
      name: new RegExp(`^(Open|Download) ${escapeRegExp(name)}$`),
    });
  }

  /** 'Download name' of a file not uploaded yet: a button that saves the device's copy. */
  deviceDownload(name: string): Locator {
    return this.card(name).getByRole('button', { name: `Download ${name}`, exact: true });
  }

  /** 'Download name' of an uploaded file that is not an image: a link to the content route. */
  serverDownload(name: string): Locator {
    return this.card(name).getByRole('link', { name: `Download ${name}`, exact: true });
  }

  /** The card says the file is on the device only, waiting (or uploading). */
  async expectWaiting(name: string) {
    await expect(this.card(name)).toContainText(/Waiting to upload|Uploading · \d+%/);
  }

  /** The card says nothing is waiting any more and its size line is back (the server's row). */
  async expectUploaded(name: string, timeout = 20_000) {
    const card = this.card(name);
    await expect(card).toBeVisible();
    await expect(card).not.toContainText(/Waiting to upload|Uploading/, { timeout });
    await expect(card.getByRole('button', { name: `Retry ${name}` })).toHaveCount(0);
  }

  /** The card shows the server's refusal and a Retry. */
  async expectFailed(name: string, words: RegExp, timeout = 30_000) {
    const card = this.card(name);
    await expect(card.getByRole('button', { name: `Retry ${name}` })).toBeVisible({ timeout });
    await expect(card).toContainText(words);
  }

  /** Attach › the file chooser, as a person picks files. */
  async attachWithChooser(files: FileBytes[]) {
    const chooser = this.page.waitForEvent('filechooser');
    await this.attachButton.click();
    await (await chooser).setFiles(files);
  }

  /** Take photo › the camera's chooser (on a phone). */
  async takePhoto(file: FileBytes) {
    const chooser = this.page.waitForEvent('filechooser');
    await this.takePhotoButton.click();
    await (await chooser).setFiles(file);
  }

  /** The hidden inputs behind Attach and Take photo. */
  get fileInput(): Locator {
    return this.region.locator('input[data-attach-input]');
  }

  get cameraInput(): Locator {
    return this.region.locator('input[data-camera-input]');
  }

  /** A DataTransfer in the page holding the files, for a drop or a paste. */
  async transfer(files: FileBytes[]): Promise<JSHandle<DataTransfer>> {
    const plain = files.map((f) => ({ name: f.name, type: f.mimeType, base64: f.buffer.toString('base64') }));
    return this.page.evaluateHandle((list) => {
      const data = new DataTransfer();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], f.name, { type: f.type }));
      }
      return data;
    }, plain);
  }

  /** Files dragged in from outside: enter the page (the outline shows). */
  async dragEnter(data: JSHandle<DataTransfer>) {
    await this.page.locator('body').dispatchEvent('dragenter', { dataTransfer: data });
    await this.page.locator('body').dispatchEvent('dragover', { dataTransfer: data });
  }

  /** …and let go of them over the page. */
  async drop(data: JSHandle<DataTransfer>) {
    await this.page.locator('main').dispatchEvent('drop', { dataTransfer: data });
  }

  /** A paste of images on the page (not into a field), as Ctrl+V of a copied screenshot. */
  async paste(files: FileBytes[]) {
    const data = await this.transfer(files);
    await this.page.evaluate((clipboardData) => {
      document.body.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }),
      );
    }, data);
  }

  /**
   * The screen as it is (not the full page: a phone's fixed bars would sit mid-page), saved as
   * test-results/screenshots/attachments/{name}.png with a copy in /tmp/outpost-shots/attachments/.
   */
  async picture(testInfo: TestInfo, name: string) {
    if (!picturesWanted) return;
    const body = await this.page.screenshot({ path: `test-results/screenshots/attachments/${name}.png` });
    await testInfo.attach(name, { body, contentType: 'image/png' });
    const copy = `/tmp/outpost-shots/attachments/${name}.png`;
    await mkdir(path.dirname(copy), { recursive: true });
    await writeFile(copy, body);
  }

  /** Closes every toast ('File attached' sits over the phone's title in a picture). */
  async dismissToasts() {
    const dismiss = this.page.getByRole('button', { name: 'Dismiss', exact: true });
    await expect(async () => {
      if ((await dismiss.count()) > 0) await dismiss.first().click({ timeout: 2_000 });
      await expect(dismiss).toHaveCount(0, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
  }

  /** The lightbox's picture, once it has loaded (a broken one has no natural width). */
  async expectLightboxShows(name: string) {
    await expect(this.lightbox.getByRole('heading', { name, exact: true })).toBeVisible();
    const image = this.lightbox.getByRole('img', { name, exact: true });
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

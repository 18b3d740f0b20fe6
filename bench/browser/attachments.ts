/**
 * The page side of `npm run bench -- attachments`' third figure (bench/attachments.ts), on
 * `window.attachmentsBench`: one signed-in device of the app's own data layer (createOutpostClient,
 * started as a screen starts it) attaches a file with the `attachments.add` command, as the item
 * page's Attach does, and edits an item's title with `items.update`, as the title field does. The
 * Node side throttles the page's uploads (CDP) and watches the server for the edit.
 */
import { createOutpostClient, manualConnectivity, type OutpostClient } from '../lib/appData';
import { deleteDb } from './localWrites';

const DB_NAME = 'attachments-bench';

let device: { client: OutpostClient; stop: () => void } | null = null;
/** The file attached each run: made once, so making it is never timed. */
let file: File | null = null;

const errors: string[] = [];

function client(): OutpostClient {
  if (!device) throw new Error('attachmentsBench.setup() first');
  return device.client;
}

const attachmentsBench = {
  /** Signs `phone` in on a fresh device, pulls, starts its services, and makes a file of `bytes`. */
  async setup(phone: string, name: string, bytes: number): Promise<{ items: number }> {
    await deleteDb(DB_NAME);
    const connectivity = manualConnectivity(true);
    const c = createOutpostClient({ dbName: DB_NAME, connectivity });
    await c.auth.getState().login(phone, name);
    await c.engine.sync();
    const starting = c.start();
    c.screenShown();
    device = { client: c, stop: await starting };
    window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));
    // Random bytes, so no layer on the way can compress them; getRandomValues fills 64 KB at a time.
    const body = new Uint8Array(bytes);
    for (let at = 0; at < bytes; at += 65_536) crypto.getRandomValues(body.subarray(at, at + 65_536));
    file = new File([body], 'bench-upload.bin', { type: 'application/octet-stream' });
    return { items: await c.db.items.count() };
  },

  /** Attaches the file to `itemId` through the app's command; answers its uuid (the upload runs on). */
  async attach(itemId: number): Promise<string> {
    if (!file) throw new Error('no file: setup() first');
    const [row] = await client().send('attachments.add', { itemId, files: [file] });
    if (!row) throw new Error('attachments.add answered no row');
    return row.uuid;
  },

  /** Edits `id`'s title through the app's command; resolves when the device has written it. */
  async edit(id: number, title: string): Promise<void> {
    await client().send('items.update', { id, patch: { title } });
  },

  /** Unhandled rejections the page saw. */
  errors(): string[] {
    return errors;
  },

  teardown(): void {
    device?.stop();
    device = null;
    file = null;
  },
};

(window as unknown as { attachmentsBench: typeof attachmentsBench }).attachmentsBench = attachmentsBench;

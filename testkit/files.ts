import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createDiskStore } from '../src/server/attachments/diskStore';
import type { FileStore } from '../src/server/attachments/fileStore';
import type { Attachment } from '../src/shared/attachments';
import type { Item } from '../src/shared/item';
import { postMultipart } from './multipart';
import { makeMutual, signedIn, type TestClient } from './testClient';

/** A disk file store in a fresh temporary folder, and how to remove the folder afterwards. */
export async function tempDiskStore(): Promise<{ store: FileStore; root: string; close(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'outpost-files-'));
  const root = path.join(folder, 'files');
  return {
    store: createDiskStore(root),
    root,
    close: () => rm(folder, { recursive: true, force: true }),
  };
}

/** Alex's campaign 'Garden' with the todo 'Fix the gate', Blair an editor of it: the file tests' team. */
export async function gardenTeam(app: FastifyInstance): Promise<{
  alex: TestClient;
  blair: TestClient;
  campaign: Item;
  todo: Item;
}> {
  const alex = await signedIn(app, 'Alex');
  const blair = await signedIn(app, 'Blair');
  await makeMutual(alex, blair);
  const campaign = await alex.create({ title: 'Garden', type: 'campaign' });
  const todo = await alex.create({ title: 'Fix the gate', type: 'todo', parent_id: campaign.id });
  const added = await alex.post(`/api/campaigns/${campaign.id}/members`, {
    user_id: blair.user!.id,
    role: 'editor',
  });
  if (added.status !== 201) throw new Error(`adding Blair answered ${added.status}: ${added.text}`);
  return { alex, blair, campaign, todo };
}

/** Uploads `bytes` as `name` to an item as the app's devices do (one part `file`, the uuid in the query). */
export function uploadFile(
  app: FastifyInstance,
  client: TestClient,
  itemId: number,
  bytes: Uint8Array,
  name: string,
  uuid?: string,
) {
  return postMultipart<Attachment>(
    app,
    client,
    `/api/items/${itemId}/attachments${uuid ? `?uuid=${uuid}` : ''}`,
    [{ file: 'file', bytes, name }],
  );
}

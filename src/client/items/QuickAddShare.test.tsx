// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import { readShared, SHARE_DB_NAME, SHARE_DB_VERSION, SHARE_STORE } from '../data/transfer/sharedInbox';
import { toastStore } from '../stores/toastStore';
import { QuickAddCard } from './QuickAddCard';

let client: OutpostClient;

beforeEach(() => {
  client = makeTestClient();
  toastStore.getState().clear();
});

afterEach(() => {
  cleanup();
  client.close();
});

/** Stores a share as the service worker does (public/share-sw.js). */
async function keepShare(record: {
  id: string;
  title: string;
  text: string;
  url: string;
  files: { name: string; type: string; text: string }[];
}): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(SHARE_DB_NAME, SHARE_DB_VERSION);
    request.onupgradeneeded = () => request.result.createObjectStore(SHARE_STORE, { keyPath: 'id' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(SHARE_STORE, 'readwrite');
    tx.objectStore(SHARE_STORE).put({
      ...record,
      // Node's Blob: the database's structured clone is Node's, which keeps no jsdom Blob's bytes.
      files: record.files.map((f) => {
        const blob = new NodeBlob([f.text], { type: f.type });
        return { name: f.name, type: f.type, size: blob.size, blob };
      }),
      created_at: new Date().toISOString(),
    });
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

const SHARE_ID = '6f1c2b9e-7a55-4d0e-9a3c-5b8e2f6d1a47';

describe('quick add takes what a phone shared', () => {
  it('opens with the shared words and files as chips; Add creates the item with the files, and the share goes', async () => {
    await keepShare({
      id: SHARE_ID,
      title: 'Broken gate',
      text: 'By the car park',
      url: '',
      files: [
        { name: 'gate.jpg', type: 'image/jpeg', text: 'jpeg bytes' },
        { name: 'notes.txt', type: 'text/plain', text: 'x' },
      ],
    });
    renderWithApp(<QuickAddCard types={['todo', 'task', 'campaign']} takesShare />, {
      route: `/?share=${SHARE_ID}`,
    });
    const title = await screen.findByDisplayValue('Broken gate');
    expect(title).toBeTruthy();
    // Words beyond the title need a description: the card turns to a task, whose card has one.
    expect(screen.getByDisplayValue('By the car park')).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Task' }) as HTMLInputElement).checked).toBe(true);
    const chips = await screen.findByRole('list', { name: 'Shared files' });
    expect(chips.textContent).toContain('gate.jpg');
    expect(chips.textContent).toContain('notes.txt');

    fireEvent.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    expect(screen.getByRole('list', { name: 'Shared files' }).textContent).not.toContain('notes.txt');
    fireEvent.click(screen.getByRole('button', { name: 'Add task' }));

    await waitFor(async () => expect(await client.db.attachments.count()).toBe(1));
    const [item] = await client.db.items.toArray();
    expect(item).toMatchObject({ title: 'Broken gate', type: 'task', description: 'By the car park' });
    const [file] = await client.db.attachments.toArray();
    // (Its bytes are the node-side tests' and the browser spec's to check: jsdom's File cannot hold Node's Blob.)
    expect(file).toMatchObject({ item_id: item!.id, name: 'gate.jpg', _syncStatus: 'local' });
    expect(await readShared(SHARE_ID)).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(screen.queryByRole('list', { name: 'Shared files' })).toBeNull();
  });

  it('Cancel puts the share aside: nothing is created and the share goes', async () => {
    await keepShare({ id: SHARE_ID, title: '', text: '', url: 'https://example.com/q', files: [] });
    renderWithApp(<QuickAddCard types={['todo']} takesShare />, { route: `/?share=${SHARE_ID}` });
    expect(await screen.findByDisplayValue('https://example.com/q')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(async () => expect(await readShared(SHARE_ID)).toBeNull());
    expect(await client.db.items.count()).toBe(0);
  });

  it('a card that does not take shares, or a share that is gone, fills nothing; the server’s ask to share again is said', async () => {
    await keepShare({ id: SHARE_ID, title: 'Not here', text: '', url: '', files: [] });
    const other = renderWithApp(<QuickAddCard types={['todo']} />, { route: `/?share=${SHARE_ID}` });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByDisplayValue('Not here')).toBeNull();
    other.unmount();

    renderWithApp(<QuickAddCard types={['todo']} takesShare />, { route: '/?share=again' });
    await waitFor(() => expect(toastStore.getState().queue.map((t) => t.title)).toContain('Share it again'));
  });
});

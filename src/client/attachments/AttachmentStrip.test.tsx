// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { Toaster } from '../app/Toaster';
import type { OutpostClient } from '../data/client';
import type { LocalAttachment } from '../data/store/types';
import AttachmentStrip from './AttachmentStrip';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

// jsdom has no object URLs: a picture of a file on the device is named by one in a browser.
const realCreate = URL.createObjectURL;
const realRevoke = URL.revokeObjectURL;
beforeAll(() => {
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:test/${++n}`);
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => {
  URL.createObjectURL = realCreate;
  URL.revokeObjectURL = realRevoke;
});

const photo = () => new File([new Uint8Array([137, 80, 78, 71])], 'gate.png', { type: 'image/png' });
const quote = () => new File(['%PDF-1.7'], 'quote.pdf', { type: 'application/pdf' });

async function todo(title = 'Fix the gate') {
  return client.items.create({ title, type: 'todo' });
}

const strip = () => screen.findByRole('list', { name: /^Files of / });

function pick(files: File[]) {
  const input = document.querySelector('input[data-attach-input]') as HTMLInputElement;
  fireEvent.change(input, { target: { files } });
}

describe('an item’s files, from the device', () => {
  it('A1, A12: a guest attaches with Attach; the file shows at once, opens from the device and is removed after asking', async () => {
    const item = await todo();
    renderWithApp(
      <>
        <AttachmentStrip itemId={item.id} itemTitle={item.title} />
        <Toaster />
      </>,
    );
    await screen.findByRole('button', { name: 'Attach' });
    // Nothing attached yet: no strip, only the ways to attach.
    expect(screen.queryByRole('list', { name: /^Files of / })).toBeNull();
    pick([photo(), quote()]);
    const list = await strip();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(await screen.findByText('2 files attached')).toBeTruthy();
    // A guest's files stay here until they sign in: nothing waits for the network.
    expect(within(list).queryByText('Waiting to upload')).toBeNull();
    // The picture is the device's copy.
    await waitFor(() => expect(list.querySelector('img')?.getAttribute('src')).toMatch(/^blob:test\//));

    fireEvent.click(within(list).getByRole('button', { name: 'Remove quote.pdf' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Remove this file?' });
    expect(ask.textContent).toContain('“quote.pdf” has not been uploaded; it is removed from this device.');
    fireEvent.click(within(ask).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(await screen.findByText('File removed')).toBeTruthy();
    expect(await client.db.fileBlobs.count()).toBe(1);
  });

  it('opens an image in the lightbox from its card and takes a pasted image and a drop anywhere on the page', async () => {
    const item = await todo();
    renderWithApp(<AttachmentStrip itemId={item.id} itemTitle={item.title} />);
    await screen.findByRole('button', { name: 'Attach' });
    fireEvent.paste(document.body, {
      clipboardData: {
        files: [new File(['png'], 'image.png', { type: 'image/png' })],
        types: ['Files'],
        getData: () => '',
      },
    });
    const list = await strip();
    const pasted = await within(list).findByRole('button', { name: /^Open Pasted image / });
    fireEvent.dragEnter(document.body, { dataTransfer: { types: ['Files'], files: [] } });
    expect(document.querySelector('[data-drop-zone]')?.textContent).toBe(
      'Drop files to attach them to “Fix the gate”',
    );
    fireEvent.drop(document.body, { dataTransfer: { types: ['Files'], files: [quote()] } });
    await within(list).findByRole('button', { name: 'Download quote.pdf' });
    expect(document.querySelector('[data-drop-zone]')).toBeNull();

    fireEvent.click(pasted);
    const box = await screen.findByRole('dialog', { name: /^Pasted image / });
    await waitFor(() => expect(within(box).getByRole('img').getAttribute('src')).toMatch(/^blob:test\//));
  });

  it('shows a viewer the files with Download and nothing that changes them; no files, nothing at all', async () => {
    const item = await todo();
    const { unmount } = renderWithApp(<AttachmentStrip itemId={item.id} itemTitle={item.title} readOnly />);
    // Given the device's answer a moment, there is still nothing to show.
    await new Promise((done) => setTimeout(done, 200));
    expect(screen.queryByRole('region', { name: 'Files' })).toBeNull();
    unmount();

    const shared: LocalAttachment = {
      id: 41,
      uuid: 'e0000000-0000-4000-8000-000000000041',
      item_id: item.id,
      name: 'site-plan.pdf',
      type: 'application/pdf',
      size: 52_000,
      sha256: 'ef'.repeat(32),
      user: { id: 9, name: 'Ana' },
      created_at: '2026-11-20T10:00:00.000Z',
      url: '/api/attachments/41/content',
      _syncStatus: 'synced',
      _deleted: 0,
    };
    await client.db.attachments.put(shared);
    renderWithApp(<AttachmentStrip itemId={item.id} itemTitle={item.title} readOnly />);
    const list = await strip();
    const link = await within(list).findByRole('link', { name: 'Download site-plan.pdf' });
    expect(link.getAttribute('href')).toBe('/api/attachments/41/content');
    expect(screen.queryByRole('button', { name: 'Attach' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    // A viewer's page takes no drop.
    fireEvent.dragEnter(document.body, { dataTransfer: { types: ['Files'], files: [] } });
    expect(document.querySelector('[data-drop-zone]')).toBeNull();
  });

  it('A6: a failed upload says why, and Retry puts it back to waiting', async () => {
    const item = await todo();
    await client.db.attachments.put({
      id: -90,
      uuid: 'f0000000-0000-4000-8000-000000000090',
      item_id: item.id,
      name: 'big-video.mp4',
      type: 'video/mp4',
      size: 40_000_000,
      sha256: '',
      user: { id: 1, name: 'Sam' },
      created_at: '2026-11-20T10:00:00.000Z',
      url: '',
      _syncStatus: 'pending',
      _deleted: 0,
      _upload: { state: 'failed', error: 'The file is larger than the limit of 25 MB.' },
    });
    renderWithApp(<AttachmentStrip itemId={item.id} itemTitle={item.title} />);
    const list = await strip();
    expect(await within(list).findByText('The file is larger than the limit of 25 MB.')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Retry big-video.mp4' }));
    expect(await within(list).findByText('Waiting to upload')).toBeTruthy();
    expect((await client.db.attachments.get(-90))?._upload?.state).toBe('waiting');
  });
});

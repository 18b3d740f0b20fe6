// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttachmentCard, type AttachmentCardProps } from './AttachmentCard';
import type { LocalAttachment } from './queries';

afterEach(cleanup);

/** A file as the device holds it once uploaded; `over` changes what a test needs. */
function fileOf(over: Partial<LocalAttachment> = {}): LocalAttachment {
  return {
    id: 7,
    uuid: 'a0000000-0000-4000-8000-000000000007',
    item_id: 3,
    name: 'Quarterly-report-for-the-board.pdf',
    type: 'application/pdf',
    size: 2_516_582,
    sha256: 'ab'.repeat(32),
    user: { id: 1, name: 'Ana' },
    created_at: '2026-11-20T10:00:00.000Z',
    url: '/api/attachments/7/content',
    _syncStatus: 'synced',
    _deleted: 0,
    ...over,
  };
}

function renderCard(file: LocalAttachment, props: Partial<AttachmentCardProps> = {}) {
  const handlers = {
    onOpen: vi.fn(),
    onSaveFromDevice: vi.fn(),
    onRemove: vi.fn(),
    onRetry: vi.fn(),
  };
  const view = render(
    <ul>
      <AttachmentCard file={file} thumbnail={null} canRemove {...handlers} {...props} />
    </ul>,
  );
  return { ...handlers, view };
}

describe('a file’s card', () => {
  it('names a PDF cut in the middle with its size and who added it, and downloads it from its link', () => {
    renderCard(fileOf());
    const link = screen.getByRole('link', { name: 'Download Quarterly-report-for-the-board.pdf' });
    expect(link.textContent).toBe('Quarterly-rep…oard.pdf');
    expect(link.getAttribute('href')).toBe('/api/attachments/7/content');
    expect(link.getAttribute('download')).toBe('Quarterly-report-for-the-board.pdf');
    expect(screen.getByText('2.4 MB · Ana')).toBeTruthy();
    expect(screen.getByText('PDF')).toBeTruthy();
    expect(screen.queryByText('Waiting to upload')).toBeNull();
  });

  it('shows an image’s thumbnail and opens the image on a press of its name', () => {
    const image = fileOf({
      name: 'gate.jpg',
      type: 'image/jpeg',
      thumbnail_url: '/api/attachments/7/thumbnail',
    });
    const { onOpen, view } = renderCard(image, { thumbnail: '/api/attachments/7/thumbnail' });
    expect(view.container.querySelector('img')?.getAttribute('src')).toBe('/api/attachments/7/thumbnail');
    fireEvent.click(screen.getByRole('button', { name: 'Open gate.jpg' }));
    expect(onOpen).toHaveBeenCalledWith(image);
  });

  it('says a file picked on the device is waiting to upload, with a thin bar of how far it has come (A1)', () => {
    const waiting = fileOf({
      id: -4,
      url: '',
      size: 1000,
      _syncStatus: 'pending',
      _upload: { state: 'waiting' },
    });
    const { onSaveFromDevice } = renderCard(waiting);
    expect(screen.getByText('Waiting to upload')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
    // Its bytes are on the device only: the name downloads them from there.
    fireEvent.click(screen.getByRole('button', { name: 'Download Quarterly-report-for-the-board.pdf' }));
    expect(onSaveFromDevice).toHaveBeenCalledWith(waiting);
    cleanup();
    renderCard({ ...waiting, _upload: { state: 'uploading', loaded: 420 } });
    expect(screen.getByText('Uploading · 42%')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('42');
  });

  it('says why an upload failed, in the server’s words, and Retry asks again (A6)', () => {
    const failed = fileOf({
      id: -5,
      url: '',
      _syncStatus: 'pending',
      _upload: { state: 'failed', error: 'The file is larger than the limit of 25 MB.' },
    });
    const { onRetry } = renderCard(failed);
    expect(screen.getByText('The file is larger than the limit of 25 MB.')).toBeTruthy();
    expect(screen.queryByText('Waiting to upload')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry Quarterly-report-for-the-board.pdf' }));
    expect(onRetry).toHaveBeenCalledWith(failed);
  });

  it('shows a guest’s file as kept on the device, not as waiting for the network (A12)', () => {
    renderCard(fileOf({ id: -6, url: '', _syncStatus: 'local', _upload: { state: 'waiting' } }));
    expect(screen.queryByText('Waiting to upload')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('offers Remove, named by the file, to whoever may change the item and to nobody else', () => {
    const file = fileOf();
    const { onRemove } = renderCard(file);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Quarterly-report-for-the-board.pdf' }));
    expect(onRemove).toHaveBeenCalledWith(file);
    cleanup();
    renderCard(file, { canRemove: false });
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(screen.getByRole('link', { name: /^Download/ })).toBeTruthy();
  });

  it('has every control named and nothing axe finds wrong, in each state', async () => {
    const { view } = renderCard(fileOf({ name: 'gate.png', type: 'image/png' }), { thumbnail: 'blob:x' });
    render(
      <ul>
        <AttachmentCard
          file={fileOf({ id: -5, uuid: 'b', url: '', _syncStatus: 'pending', _upload: { state: 'failed' } })}
          thumbnail={null}
          canRemove
          onOpen={() => {}}
          onSaveFromDevice={() => {}}
          onRemove={() => {}}
          onRetry={() => {}}
        />
      </ul>,
      { container: view.container.appendChild(document.createElement('div')) },
    );
    // jsdom draws nothing, so contrast is the browser specs' to check.
    const results = await axe.run(view.container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});

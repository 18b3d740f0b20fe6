// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Lightbox } from './Lightbox';
import type { LocalAttachment } from './queries';

afterEach(cleanup);

function image(n: number, over: Partial<LocalAttachment> = {}): LocalAttachment {
  return {
    id: n,
    uuid: `c000000${n}-0000-4000-8000-000000000000`,
    item_id: 3,
    name: `photo-${n}.jpg`,
    type: 'image/jpeg',
    size: 1024 * n,
    sha256: 'cd'.repeat(32),
    user: { id: 2, name: 'Sam' },
    created_at: '2026-11-20T10:00:00.000Z',
    url: `/api/attachments/${n}/content`,
    _syncStatus: 'synced',
    _deleted: 0,
    ...over,
  };
}

function Shown({ images, start, save }: { images: LocalAttachment[]; start: number; save?: () => void }) {
  const [index, setIndex] = useState<number | null>(start);
  return (
    <>
      <output data-testid="index">{String(index)}</output>
      <Lightbox
        images={images}
        index={index}
        onIndexChange={setIndex}
        srcOf={(f) => (f.url === '' ? null : f.url)}
        onSaveFromDevice={save ?? (() => {})}
      />
    </>
  );
}

const current = () => screen.getByRole('dialog');

/** A card's link that opens the lightbox, as the strip's is (no Dialog.Trigger). */
function Opened({ images }: { images: LocalAttachment[] }) {
  const [index, setIndex] = useState<number | null>(null);
  return (
    <>
      <button type="button" onClick={() => setIndex(0)}>
        Open photo-1.jpg
      </button>
      <Lightbox
        images={images}
        index={index}
        onIndexChange={setIndex}
        srcOf={(f) => f.url}
        onSaveFromDevice={() => {}}
      />
    </>
  );
}

describe('the lightbox', () => {
  it('shows one image with its name, place, size and who added it; ← and → step through, round the ends', () => {
    render(<Shown images={[image(1), image(2), image(3)]} start={0} />);
    expect(screen.getByRole('img', { name: 'photo-1.jpg' }).getAttribute('src')).toBe(
      '/api/attachments/1/content',
    );
    expect(screen.getByText('1 of 3 · 1 KB · Sam')).toBeTruthy();
    fireEvent.keyDown(current(), { key: 'ArrowRight' });
    expect(screen.getByRole('img', { name: 'photo-2.jpg' })).toBeTruthy();
    fireEvent.keyDown(current(), { key: 'ArrowLeft' });
    fireEvent.keyDown(current(), { key: 'ArrowLeft' });
    expect(screen.getByRole('img', { name: 'photo-3.jpg' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('img', { name: 'photo-1.jpg' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(screen.getByText('3 of 3 · 3 KB · Sam')).toBeTruthy();
  });

  it('is named by the file, downloads it and closes with Esc', () => {
    render(<Shown images={[image(1)]} start={0} />);
    expect(screen.getByRole('dialog', { name: 'photo-1.jpg' })).toBeTruthy();
    // One image: nothing to step to.
    expect(screen.queryByRole('button', { name: 'Next image' })).toBeNull();
    const download = screen.getByRole('link', { name: 'Download photo-1.jpg' });
    expect(download.getAttribute('href')).toBe('/api/attachments/1/content');
    expect(download.getAttribute('download')).toBe('photo-1.jpg');
    fireEvent.keyDown(current(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('index').textContent).toBe('null');
  });

  it('says a picture could not be loaded (offline, not in the browser’s cache) instead of a broken image', () => {
    render(<Shown images={[image(1)]} start={0} />);
    fireEvent.error(screen.getByRole('img', { name: 'photo-1.jpg' }));
    expect(screen.queryByRole('img')).toBeNull();
    expect(
      screen.getByText('This picture could not be loaded. It shows when you are online again.'),
    ).toBeTruthy();
  });

  it('gives the focus back to the card that opened it when it closes', async () => {
    render(<Opened images={[image(1), image(2)]} />);
    const opener = screen.getByRole('button', { name: 'Open photo-1.jpg' });
    opener.focus();
    fireEvent.click(opener);
    expect(current().contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(current(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    // Radix moves the focus on close a task later.
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('downloads an image not uploaded yet from the device', () => {
    const save = vi.fn();
    render(<Shown images={[image(1, { id: -1, url: '' })]} start={0} save={save} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download photo-1.jpg' }));
    expect(save).toHaveBeenCalledOnce();
    expect(screen.getByText('This picture is not on this device.')).toBeTruthy();
  });
});

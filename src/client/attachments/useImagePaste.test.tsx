// @vitest-environment jsdom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pastedImages, useImagePaste } from './useImagePaste';

afterEach(cleanup);

/** A clipboard as a paste event carries it: its files, and its text when it has some. */
function clipboard(files: File[], text = '') {
  const types = [...(text ? ['text/plain'] : []), ...(files.length > 0 ? ['Files'] : [])];
  return { files, types, getData: (type: string) => (type === 'text/plain' ? text : '') };
}

const screenshot = () => new File(['png'], 'image.png', { type: 'image/png' });

function Page({ enabled = true, onFiles }: { enabled?: boolean; onFiles: (files: File[]) => void }) {
  useImagePaste(enabled, onFiles);
  return (
    <div>
      <textarea aria-label="Comment" />
      <p>Description</p>
    </div>
  );
}

describe('a pasted image', () => {
  it('is attached when pasted on the page, named by when it was pasted', () => {
    const onFiles = vi.fn();
    const view = render(<Page onFiles={onFiles} />);
    const pasted = fireEvent.paste(view.getByText('Description'), {
      clipboardData: clipboard([screenshot()]),
    });
    expect(pasted).toBe(false);
    const [files] = onFiles.mock.calls[0] as [File[]];
    expect(files.map((f) => f.type)).toEqual(['image/png']);
    expect(files[0]?.name).toMatch(/^Pasted image \d{4}-\d\d-\d\d \d\d\.\d\d\.png$/);
  });

  it('is attached from a text field too when the paste holds no text', () => {
    const onFiles = vi.fn();
    const view = render(<Page onFiles={onFiles} />);
    fireEvent.paste(view.getByLabelText('Comment'), { clipboardData: clipboard([screenshot()]) });
    expect(onFiles).toHaveBeenCalledOnce();
  });

  it('is left to the field when it comes with text typed into a field, and text alone is never attached', () => {
    const onFiles = vi.fn();
    const view = render(<Page onFiles={onFiles} />);
    const field = view.getByLabelText('Comment');
    expect(fireEvent.paste(field, { clipboardData: clipboard([screenshot()], 'A paragraph') })).toBe(true);
    expect(fireEvent.paste(view.getByText('Description'), { clipboardData: clipboard([], 'words') })).toBe(
      true,
    );
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('is not attached on a viewer’s page', () => {
    const onFiles = vi.fn();
    const view = render(<Page enabled={false} onFiles={onFiles} />);
    fireEvent.paste(view.getByText('Description'), { clipboardData: clipboard([screenshot()]) });
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('keeps a named file’s name, and attaches only images', () => {
    const named = new File(['x'], 'gate.jpg', { type: 'image/jpeg' });
    const doc = new File(['%PDF'], 'quote.pdf', { type: 'application/pdf' });
    const data = clipboard([named, doc]) as unknown as DataTransfer;
    expect(pastedImages(data, document.body).map((f) => f.name)).toEqual(['gate.jpg']);
  });
});

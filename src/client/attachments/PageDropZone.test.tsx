// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageDropZone } from './PageDropZone';

afterEach(cleanup);

/** A drag's data as a browser hands it: its kinds, and the files once dropped. */
function transfer(types: string[], files: File[] = []) {
  return { types, files, dropEffect: 'none' };
}

const outline = () => document.querySelector('[data-drop-zone]');

describe('a drop anywhere on the page', () => {
  it('outlines the whole page while files are dragged over it, says where they go, and hands over a drop', () => {
    const onFiles = vi.fn();
    render(<PageDropZone target="Fix the gate" onFiles={onFiles} />);
    const photo = new File(['x'], 'gate.jpg', { type: 'image/jpeg' });
    fireEvent.dragEnter(document.body, { dataTransfer: transfer(['Files']) });
    expect(outline()).not.toBeNull();
    expect(screen.getAllByText('Drop files to attach them to “Fix the gate”').length).toBeGreaterThan(0);
    const over = fireEvent.dragOver(document.body, { dataTransfer: transfer(['Files']) });
    // Not cancelled, the browser would open the file in place of the app.
    expect(over).toBe(false);
    fireEvent.drop(document.body, { dataTransfer: transfer(['Files'], [photo]) });
    expect(onFiles).toHaveBeenCalledWith([photo]);
    expect(outline()).toBeNull();
  });

  it('lets the outline go when the drag leaves the window', () => {
    render(<PageDropZone target="Fix the gate" onFiles={() => {}} />);
    fireEvent.dragEnter(document.body, { dataTransfer: transfer(['Files']) });
    fireEvent.dragEnter(document.body.firstElementChild as Element, { dataTransfer: transfer(['Files']) });
    fireEvent.dragLeave(document.body, { dataTransfer: transfer(['Files']) });
    expect(outline()).not.toBeNull();
    fireEvent.dragLeave(document.body.firstElementChild as Element, { dataTransfer: transfer(['Files']) });
    expect(outline()).toBeNull();
  });

  it('ends the outline once dragovers stop, when a browser loses count of enters and leaves', () => {
    vi.useFakeTimers();
    try {
      render(<PageDropZone target="Fix the gate" onFiles={() => {}} />);
      fireEvent.dragEnter(document.body, { dataTransfer: transfer(['Files']) });
      fireEvent.dragEnter(document.body, { dataTransfer: transfer(['Files']) });
      fireEvent.dragOver(document.body, { dataTransfer: transfer(['Files']) });
      expect(outline()).not.toBeNull();
      act(() => vi.advanceTimersByTime(1000));
      expect(outline()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves a drag of text or a link alone', () => {
    const onFiles = vi.fn();
    render(<PageDropZone target="Fix the gate" onFiles={onFiles} />);
    fireEvent.dragEnter(document.body, { dataTransfer: transfer(['text/plain']) });
    expect(outline()).toBeNull();
    const over = fireEvent.dragOver(document.body, { dataTransfer: transfer(['text/plain']) });
    expect(over).toBe(true);
    fireEvent.drop(document.body, { dataTransfer: transfer(['text/plain']) });
    expect(onFiles).not.toHaveBeenCalled();
  });
});

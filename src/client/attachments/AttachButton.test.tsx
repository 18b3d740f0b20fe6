// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttachButton } from './AttachButton';

const realMatchMedia = window.matchMedia;

afterEach(() => {
  cleanup();
  window.matchMedia = realMatchMedia;
});

/** A browser whose main pointer is a finger (a phone) or not. */
function pointer(coarse: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: coarse && query === '(pointer: coarse)',
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
}

describe('Attach', () => {
  it('picks any files, several at once, and hands them over', () => {
    const onFiles = vi.fn();
    render(<AttachButton onFiles={onFiles} />);
    const input = document.querySelector('input[data-attach-input]') as HTMLInputElement;
    expect(input.multiple).toBe(true);
    expect(input.accept).toBe('');
    expect(input.hasAttribute('capture')).toBe(false);
    const click = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Attach' }));
    expect(click).toHaveBeenCalledOnce();
    const files = [new File(['a'], 'a.txt'), new File(['b'], 'b.txt')];
    fireEvent.change(input, { target: { files } });
    expect(onFiles).toHaveBeenCalledWith(files);
  });

  it('offers Take photo (the camera) beside Attach on a touch screen only, and the hint of a drop elsewhere', () => {
    pointer(true);
    render(<AttachButton onFiles={() => {}} />);
    expect(screen.getByRole('button', { name: 'Attach' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Take photo' }));
    const camera = document.querySelector('input[data-camera-input]') as HTMLInputElement;
    expect(camera.getAttribute('capture')).toBe('environment');
    expect(camera.accept).toBe('image/*');
    expect(screen.queryByText('or drop files anywhere on the page')).toBeNull();
    cleanup();

    pointer(false);
    render(<AttachButton onFiles={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Take photo' })).toBeNull();
    expect(document.querySelector('input[capture]')).toBeNull();
    expect(screen.getByText('or drop files anywhere on the page')).toBeTruthy();
  });
});

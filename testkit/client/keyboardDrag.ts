import { act, fireEvent } from '@testing-library/react';

/**
 * Presses a key where focus is, as @dnd-kit's keyboard sensor hears it (it listens on the document),
 * then lets the drag's next frame run.
 */
export async function pressKey(code: string, key: string): Promise<void> {
  fireEvent.keyDown(document.activeElement ?? document.body, { code, key });
  await act(() => new Promise((r) => setTimeout(r, 20)));
}

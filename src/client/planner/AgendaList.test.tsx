// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pressKey } from '../../../testkit/client/keyboardDrag';
import { makeTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import { dayKey } from '../../shared/agenda';
import { TABLES } from '../data/sync/context';
import { swapTempId } from '../data/sync/tempIds';
import TodayPage from './TodayPage';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("Today's reorder while a row's id changes", () => {
  it('O6: a row lifted by keyboard whose create the server answers (new id) still drops where the arrows took it, focus kept', async () => {
    const client = makeTestClient();
    const today = dayKey(new Date());
    const paint = await client.items.create({ title: 'Paint', type: 'todo', due_date: today });
    await client.items.create({ title: 'Sweep', type: 'todo', due_date: today });
    await client.items.create({ title: 'Mop', type: 'todo', due_date: today });
    // jsdom lays nothing out, and the keyboard drag picks its place by position: rows 50 px apart.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const index = Number(this.closest<HTMLElement>('li[data-index]')?.dataset.index ?? 0);
      return new DOMRect(0, index * 50, 400, 50);
    });
    renderWithApp(<TodayPage />);
    const handleOf = () => screen.getByRole('button', { name: 'Move “Paint”' });
    const handle = await waitFor(handleOf);
    expect(handle.closest('li')?.dataset.index).toBe('0');
    handle.focus();
    await pressKey('Space', ' ');
    await pressKey('ArrowDown', 'ArrowDown');
    await pressKey('ArrowDown', 'ArrowDown');

    // The server's answer to the create, as push and pull apply it: the row's id becomes another.
    const serverId = 9001;
    await act(() =>
      client.db.transaction('rw', [...TABLES], () => swapTempId(client.db, paint.id, serverId)),
    );
    await waitFor(() => expect(document.querySelector(`[data-item-id="${serverId}"]`)).toBeTruthy());
    expect(document.querySelector('li[data-dragging="true"]')?.textContent).toContain('Paint');
    expect(document.activeElement).toBe(handleOf());

    await pressKey('Space', ' ');
    await waitFor(async () => {
      const rows = await client.db.items.toArray();
      const order = rows
        .sort((a, b) => ((a.sort_key ?? '') < (b.sort_key ?? '') ? -1 : 1))
        .map((r) => `${r.title}#${r.id}`);
      expect(order.at(-1)).toBe(`Paint#${serverId}`);
    });
    expect(document.activeElement).toBe(handleOf());
    client.close();
  });
});

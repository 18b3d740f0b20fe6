// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Comment, mentionToken } from '../../shared/comments';
import { type Door, DoorProvider, pageDoor } from '../app/door';
import type { CommentRefusal } from '../data/store/types';
import { RefusedComment } from './RefusedComment';

afterEach(cleanup);

const at = '2026-11-25T10:00:00Z';

function refusedComment(refusal: CommentRefusal, id = -3): Comment & { _refused: CommentRefusal } {
  return {
    id,
    uuid: '7d0c5a52-6c39-4d1e-9a57-5b0f5f6b2c11',
    item_id: 40,
    user: { id: 1, name: 'Blair' },
    body: `Over to you ${mentionToken(9)}`,
    mentions: [{ id: 9, name: 'Alex' }],
    created_at: at,
    updated_at: at,
    edited: false,
    _refused: refusal,
  };
}

function show(comment: Comment) {
  const send = vi.fn(async () => true);
  const door: Door = { ...pageDoor(), send: send as unknown as Door['send'] };
  const queries = new QueryClient();
  render(
    <DoorProvider door={door}>
      <QueryClientProvider client={queries}>
        <ol>
          <RefusedComment comment={comment} people={[{ id: 9, name: 'Alex' }]} />
        </ol>
      </QueryClientProvider>
    </DoorProvider>,
  );
  return send;
}

describe('a comment the server refused (K20)', () => {
  it('K20: shows its text with “Not sent: <reason>”, and Edit sends the fixed text with its mentions', async () => {
    const send = show(
      refusedComment({ what: 'create', message: 'You can only mention people who can see this item.', at }),
    );
    const row = screen.getByRole('listitem');
    expect(row.textContent).toContain('Over to you @Alex');
    expect(screen.getByText(/^Not sent:/).textContent).toBe(
      'Not sent: You can only mention people who can see this item.',
    );
    expect(row.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy text' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const field = screen.getByLabelText('Edit comment to send again') as HTMLTextAreaElement;
    expect(field.value).toBe('Over to you @Alex');
    fireEvent.change(field, { target: { value: 'Over to you, @Alex, when you can' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(send).toHaveBeenCalledWith('comments.update', {
        id: -3,
        body: `Over to you, ${mentionToken(9)}, when you can`,
        mentions: [{ id: 9, name: 'Alex' }],
      }),
    );
  });

  it('K20: Discard asks first, then takes the comment off the device', async () => {
    const send = show(refusedComment({ what: 'create', message: 'Item not found.', at }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Discard this comment?' });
    expect(send).not.toHaveBeenCalled();
    fireEvent.click(
      [...confirm.querySelectorAll('button')].find((b) => b.textContent === 'Discard') as HTMLButtonElement,
    );
    await waitFor(() => expect(send).toHaveBeenCalledWith('comments.discardRefused', -3));
  });

  it('K20: a refused edit reads “Not saved” and offers the server’s text back', async () => {
    const send = show(refusedComment({ what: 'edit', message: 'Too long.', at }, 12));
    expect(screen.getByText(/^Not saved:/).textContent).toBe('Not saved: Too long.');
    expect(screen.getByRole('listitem').id).toBe('comment-12');
    fireEvent.click(screen.getByRole('button', { name: 'Use saved text' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Go back to the saved text?' });
    fireEvent.click(
      [...confirm.querySelectorAll('button')].find(
        (b) => b.textContent === 'Use saved text',
      ) as HTMLButtonElement,
    );
    await waitFor(() => expect(send).toHaveBeenCalledWith('comments.discardRefused', 12));
  });
});

// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from './Composer';

afterEach(cleanup);

describe('Composer', () => {
  it('empties the field once the comment is stored', async () => {
    const onSend = vi.fn(async () => true);
    render(<Composer people={[]} onSend={onSend} />);
    const field = screen.getByRole('textbox', { name: 'Comment' });
    fireEvent.change(field, { target: { value: 'The hall is free' } });
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('The hall is free', []));
    expect(field).toHaveProperty('value', '');
  });

  it('gives the text back when the comment could not be stored, so nothing typed is lost', async () => {
    const onSend = vi.fn(async () => false);
    render(<Composer people={[]} onSend={onSend} />);
    const field = screen.getByRole('textbox', { name: 'Comment' });
    fireEvent.change(field, { target: { value: 'The hall is free' } });
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(field).toHaveProperty('value', 'The hall is free'));
  });

  it('a name picked in the middle of the text leaves one space before the words after it', async () => {
    render(<Composer people={[{ id: 4, name: 'Mark Li' }]} onSend={vi.fn()} />);
    const field = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Comment' });
    fireEvent.change(field, { target: { value: 'Thanks @ma for the hall' } });
    field.setSelectionRange(10, 10);
    fireEvent.select(field);
    await screen.findByRole('option', { name: /Mark Li/ });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(field.value).toBe('Thanks @Mark Li for the hall');
  });

  it('a space typed right after a picked name is the one the pick put there, not a second', async () => {
    const onSend = vi.fn(async () => true);
    render(<Composer people={[{ id: 4, name: 'Mark Li' }]} onSend={onSend} />);
    const field = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Comment' });
    fireEvent.change(field, { target: { value: 'Ask @ma' } });
    await screen.findByRole('option', { name: /Mark Li/ });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(field.value).toBe('Ask @Mark Li ');
    field.setSelectionRange(field.value.length, field.value.length);
    // fireEvent answers false when the handler prevented the key's default (typing the space).
    expect(fireEvent.keyDown(field, { key: ' ' })).toBe(false);
    // Any other key first, and a space is a space again.
    fireEvent.keyDown(field, { key: 'a' });
    expect(fireEvent.keyDown(field, { key: ' ' })).toBe(true);
  });
});

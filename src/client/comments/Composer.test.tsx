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
});

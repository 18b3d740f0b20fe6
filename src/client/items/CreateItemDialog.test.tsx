// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import CreateItemDialog from './CreateItemDialog';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

describe('CreateItemDialog', () => {
  it('creates with Ctrl+Enter or Cmd+Enter from any field', async () => {
    const onOpenChange = vi.fn();
    renderWithApp(<CreateItemDialog open onOpenChange={onOpenChange} />);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Spring launch' } });
    const description = screen.getByLabelText(/Description/);
    fireEvent.change(description, { target: { value: 'Line one' } });
    // Plain Enter in the description is a new line, not a submit.
    fireEvent.keyDown(description, { key: 'Enter' });
    expect(await client.db.items.count()).toBe(0);
    await act(async () => {
      fireEvent.keyDown(description, { key: 'Enter', ctrlKey: true });
    });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    const [item] = await client.db.items.toArray();
    expect(item).toMatchObject({ title: 'Spring launch', type: 'campaign', description: 'Line one' });
  });

  it('does not create without a title', async () => {
    renderWithApp(<CreateItemDialog open onOpenChange={() => {}} />);
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Title'), { key: 'Enter', metaKey: true });
    });
    expect(screen.getByText('Title is required.')).toBeTruthy();
    expect(await client.db.items.count()).toBe(0);
  });
});

// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eachTestClient, renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import TaskDetailPage from '../tasks/TaskDetailPage';
import CampaignDetailPage from './CampaignDetailPage';

let client: OutpostClient;

eachTestClient((made) => {
  client = made;
});

describe('CampaignDetailPage', () => {
  it('shows the facts, then lists a new child and the progress as soon as it is written', async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign', due_date: '2026-12-20' });
    renderWithApp(<CampaignDetailPage />, { route: `/campaigns/${campaign.id}`, path: '/campaigns/:id' });
    await waitFor(() =>
      expect(screen.getByText('No tasks or todos yet. Add your first item above!')).toBeTruthy(),
    );
    expect(screen.getByText('Created by:')).toBeTruthy();
    expect(screen.getByText('Guest User')).toBeTruthy();
    expect(screen.getByText('Due:')).toBeTruthy();
    expect(screen.queryByText(/of \d+ done/)).toBeNull();

    await act(async () => {
      const task = await client.items.create({ title: 'Raised beds', type: 'task', parent_id: campaign.id });
      await client.items.create({ title: 'Order compost', type: 'todo', parent_id: campaign.id });
      await client.items.setStatus(task.id, 'completed');
    });
    await waitFor(() => expect(screen.getByText('Raised beds')).toBeTruthy());
    expect(screen.getByText('Order compost')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('1 of 2 done')).toBeTruthy());
    expect(screen.getByText('50%')).toBeTruthy();
  });

  it('says when the campaign does not exist', async () => {
    renderWithApp(<CampaignDetailPage />, { route: '/campaigns/999', path: '/campaigns/:id' });
    await waitFor(() => expect(screen.getByText('Campaign not found')).toBeTruthy());
  });

  it("shows a guest the campaign's local history without a request", async () => {
    const campaign = await client.items.create({ title: 'Garden', type: 'campaign' });
    const todo = await client.items.create({ title: 'Dig', type: 'todo', parent_id: campaign.id });
    await client.items.setStatus(todo.id, 'completed');
    renderWithApp(<CampaignDetailPage />, {
      route: `/campaigns/${campaign.id}?tab=activity`,
      path: '/campaigns/:id',
    });
    await waitFor(() => expect(screen.getByRole('list', { name: 'Activity' })).toBeTruthy());
    const lines = [...screen.getByRole('list', { name: 'Activity' }).querySelectorAll(':scope > li')].map(
      (li) => li.querySelector('p')?.textContent,
    );
    expect(lines).toContain('You created campaign “Garden”');
    expect(lines).toContain('You created todo “Dig”');
    expect(lines).toContain('You completed todo “Dig”');
  });
});

describe('TaskDetailPage', () => {
  it('shows its facts and todos, live', async () => {
    const task = await client.items.create({ title: 'Raised beds', type: 'task', assigned_to: 2 });
    renderWithApp(<TaskDetailPage />, { route: `/tasks/${task.id}`, path: '/tasks/:id' });
    await waitFor(() => expect(screen.getByText('No todos yet. Add your first todo above!')).toBeTruthy());
    for (const label of ['Created by:', 'Assigned to:', 'Status:'])
      expect(screen.getByText(label)).toBeTruthy();
    expect(screen.getByText('Sam Rivera')).toBeTruthy();
    await act(async () => {
      await client.items.create({ title: 'Buy boards', type: 'todo', parent_id: task.id });
    });
    await waitFor(() => expect(screen.getByText('Buy boards')).toBeTruthy());
    expect(screen.getByText('0 of 1 done')).toBeTruthy();
  });

  it("keeps empty dates, reminder and repeat behind 'Add …' buttons; one opened shows its field, focused", async () => {
    const task = await client.items.create({ title: 'Raised beds', type: 'task' });
    renderWithApp(<TaskDetailPage />, { route: `/tasks/${task.id}`, path: '/tasks/:id' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add due date…' })).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Add reminder…' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add repeat…' })).toBeTruthy();
    expect(screen.queryByText('Due:')).toBeNull();
    expect(screen.queryByText('Reminder:')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Add due date…' }));
    const due = await waitFor(() => screen.getByLabelText('Due:'));
    await waitFor(() => expect(document.activeElement).toBe(due));
    expect(screen.queryByRole('button', { name: 'Add due date…' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add reminder…' })).toBeTruthy();
  });

  it("folds a long description to four lines with 'Show more', and unfolds it", async () => {
    const description = Array.from({ length: 12 }, (_, i) => `Step ${i + 1}: measure, cut and fix.`).join(
      '\n',
    );
    const task = await client.items.create({ title: 'Raised beds', type: 'task', description });
    renderWithApp(<TaskDetailPage />, { route: `/tasks/${task.id}`, path: '/tasks/:id' });
    const more = await waitFor(() => screen.getByRole('button', { name: 'Show more' }));
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByText(/Step 1:/).className).toContain('line-clamp-4');
    fireEvent.click(more);
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText(/Step 1:/).className).not.toContain('line-clamp-4');
  });

  it('shows the http(s) URLs of a description as links that open in a new tab, and no javascript: link (issue 50)', async () => {
    const description = 'Plan at https://example.com/plan. Not javascript:alert(1)';
    const task = await client.items.create({ title: 'Raised beds', type: 'task', description });
    renderWithApp(<TaskDetailPage />, { route: `/tasks/${task.id}`, path: '/tasks/:id' });
    const link = await screen.findByRole('link', { name: 'https://example.com/plan' });
    expect(link.getAttribute('href')).toBe('https://example.com/plan');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.parentElement?.textContent).toBe(description);
    expect(screen.queryByRole('link', { name: /javascript/ })).toBeNull();
  });

  it('shows a date that has a value without asking', async () => {
    const task = await client.items.create({ title: 'Raised beds', type: 'task', due_date: '2030-05-01' });
    renderWithApp(<TaskDetailPage />, { route: `/tasks/${task.id}`, path: '/tasks/:id' });
    await waitFor(() => expect(screen.getByLabelText('Due:')).toBeTruthy());
    expect((screen.getByLabelText('Due:') as HTMLInputElement).value).toBe('2030-05-01');
    expect(screen.queryByRole('button', { name: 'Add due date…' })).toBeNull();
  });

  it('closing the description editor gives focus back to its button, unless focus has moved on since', async () => {
    const task = await client.items.create({ title: 'Raised beds', type: 'task' });
    renderWithApp(<TaskDetailPage />, { route: `/tasks/${task.id}`, path: '/tasks/:id' });
    fireEvent.click(await screen.findByRole('button', { name: 'Add a description' }));
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Description' }), { key: 'Escape' });
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add a description' })),
    );
    // Closed again, then focus moves to the next control before the editor's timer runs (a browser
    // runs a click before a pending timer): it stays there.
    fireEvent.click(screen.getByRole('button', { name: 'Add a description' }));
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Description' }), { key: 'Escape' });
    const next = screen.getByRole('button', { name: 'Add reminder…' });
    next.focus();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(document.activeElement).toBe(next);
  });

  it('says when the task does not exist', async () => {
    renderWithApp(<TaskDetailPage />, { route: '/tasks/12345', path: '/tasks/:id' });
    await waitFor(() => expect(screen.getByText('Task not found')).toBeTruthy());
  });
});

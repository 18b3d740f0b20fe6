// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './Tabs';

function Example({ onMount }: { onMount?: () => void }) {
  const [tab, setTab] = useState('one');
  return (
    <Tabs value={tab} onValueChange={setTab}>
      <TabsList aria-label="Parts">
        <TabsTrigger value="one">One</TabsTrigger>
        <TabsTrigger value="two">Two</TabsTrigger>
      </TabsList>
      <TabsContent value="one">
        <p>First body</p>
      </TabsContent>
      <TabsContent value="two">
        <p ref={() => onMount?.()}>Second body</p>
      </TabsContent>
    </Tabs>
  );
}

describe('tabs', () => {
  afterEach(cleanup);

  it('names each panel by its tab and points each tab at its panel; only the open panel is shown', () => {
    render(<Example />);
    const one = screen.getByRole('tab', { name: 'One' });
    const panel = screen.getByRole('tabpanel', { name: 'One' });
    expect(one.getAttribute('aria-controls')).toBe(panel.id);
    expect(one.getAttribute('aria-selected')).toBe('true');
    expect(panel.textContent).toBe('First body');
    // The closed panel is in the page (its tab's aria-controls names it) but hidden and empty.
    const two = screen.getByRole('tab', { name: 'Two' });
    const closed = document.getElementById(two.getAttribute('aria-controls') ?? '');
    expect(closed?.hidden).toBe(true);
    expect(closed?.textContent).toBe('');
    expect(screen.queryByText('Second body')).toBeNull();
  });

  it('opens a tab by keyboard and mounts its panel only then', async () => {
    let mounts = 0;
    render(<Example onMount={() => mounts++} />);
    expect(mounts).toBe(0);
    const one = screen.getByRole('tab', { name: 'One' });
    one.focus();
    // Radix's roving focus moves to the next tab (on a timer), which automatic activation opens.
    fireEvent.keyDown(one, { key: 'ArrowRight' });
    const two = screen.getByRole('tab', { name: 'Two' });
    await waitFor(() => expect(document.activeElement).toBe(two));
    expect(two.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Two' }).textContent).toBe('Second body');
    expect(screen.queryByText('First body')).toBeNull();
    expect(mounts).toBeGreaterThan(0);
  });

  it('ids differ between two sets of tabs on one page', () => {
    render(
      <>
        <Example />
        <Example />
      </>,
    );
    const ids = screen.getAllByRole('tabpanel').map((p) => p.id);
    expect(new Set(ids).size).toBe(2);
  });
});

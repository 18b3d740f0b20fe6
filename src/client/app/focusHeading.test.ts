// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { focusNewHeading } from './focusHeading';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('focus after opening a search result', () => {
  it("waits for the opened page's heading, then focuses it without adding it to the Tab order", async () => {
    document.body.innerHTML = '<main><h1>Home</h1></main>';
    const previous = document.querySelector('main h1');
    focusNewHeading(previous);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The old page is still drawn: focus stays where it was.
    expect(document.activeElement).toBe(document.body);

    document.querySelector('main')!.innerHTML = '<h1>Garden launch</h1>';
    const heading = document.querySelector('main h1') as HTMLElement;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(document.activeElement).toBe(heading);
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });

  it('gives up when no new heading comes', async () => {
    document.body.innerHTML = '<main><h1>Home</h1></main>';
    focusNewHeading(document.querySelector('main h1'), 30);
    await new Promise((resolve) => setTimeout(resolve, 120));
    document.querySelector('main')!.innerHTML = '<h1>Later</h1>';
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(document.activeElement).toBe(document.body);
  });
});

// @vitest-environment jsdom
/**
 * Preferences' layout (issue 62) against the real server and the real data layer: the index at the top
 * lists every section the page shows, in page order, each linking to its heading; API tokens sit beside
 * Webhooks; the danger zone comes last.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testDevices } from '../../../testkit/client/devices';
import { renderWithApp } from '../../../testkit/client/renderWithApp';
import type { OutpostClient } from '../data/client';
import PreferencesPage from './PreferencesPage';
import { sectionIndex } from './SectionIndex';

const { signedIn, guest } = testDevices();

afterEach(() => cleanup());

/** The ids of the page's section headings, in page order (the index's own heading aside). */
const sectionHeadings = () =>
  [...document.querySelectorAll<HTMLHeadingElement>('h2[id^="pref-"]')]
    .map((h) => h.id)
    .filter((id) => id !== 'pref-index');

/**
 * Preferences for `client`, once the headings `awaited` have drawn: the sections loaded on demand
 * (Webhooks, Trash, Export and import) among them, so the page holds every section it will show.
 */
async function renderPreferences(client: OutpostClient, awaited: readonly string[]) {
  renderWithApp(<PreferencesPage />, { route: '/preferences', client });
  // The lazy chunks load on first use: on CI's two busy cores that can pass the usual 5 s of waiting.
  await waitFor(
    () => {
      for (const id of awaited) expect(document.getElementById(id), id).not.toBeNull();
    },
    { timeout: 15_000 },
  );
  return screen.getByRole('navigation', { name: 'On this page' });
}

/**
 * Every heading the index names: each lazily loaded section (Email, Webhooks, Trash, Export and
 * import) is waited for, or one still loading on a busy machine reads as missing (a fresh-clone CI).
 */
const everySection = (signedIn: boolean) => sectionIndex(signedIn).map((entry) => entry.id);

/** The index's links: where each goes and what it says. */
const indexLinks = (index: HTMLElement) =>
  within(index)
    .getAllByRole('link')
    .map((a) => ({ href: a.getAttribute('href'), label: a.textContent }));

/** Each index entry links to a section heading on the page, and every section heading has one, in order. */
function expectIndexMatchesPage(index: HTMLElement) {
  const headings = sectionHeadings();
  const links = indexLinks(index);
  expect(links.map((l) => l.href)).toEqual(headings.map((id) => `#${id}`));
  for (const id of headings) {
    const heading = document.getElementById(id);
    expect(heading?.tagName).toBe('H2');
    // The heading names its section (the region the page's landmarks list).
    expect(heading?.closest('[role="region"]')?.getAttribute('aria-labelledby')).toBe(id);
  }
  return headings;
}

describe('Preferences: index and order of sections', () => {
  it('signed in: the index lists every section in page order, each linking to its heading; API tokens sit beside Webhooks; the danger zone is last', async () => {
    const device = await signedIn('Pref Reader');
    const index = await renderPreferences(device.client, everySection(true));
    const headings = expectIndexMatchesPage(index);
    // The account's sections are there too (the list is the page's, not a guest's).
    expect(headings).toEqual(
      expect.arrayContaining([
        'pref-name',
        'pref-phone',
        'pref-sync',
        'pref-calendar',
        'pref-devices',
        'pref-passkeys',
      ]),
    );

    const tokens = headings.indexOf('pref-api-tokens');
    const webhooks = headings.indexOf('pref-webhooks');
    expect(tokens).toBeGreaterThanOrEqual(0);
    expect(webhooks).toBeGreaterThanOrEqual(0);
    expect(Math.abs(tokens - webhooks)).toBe(1);

    expect(headings.at(-1)).toBe('pref-data');
    const danger = screen.getByRole('region', { name: 'Data Management' });
    expect(within(danger).getByRole('button', { name: 'Clear Local Data' })).toBeTruthy();
    expect(indexLinks(index).at(-1)).toEqual({ href: '#pref-data', label: 'Data Management' });
  });

  it('as a guest: the index lists only the sections a guest sees, and the danger zone is still last', async () => {
    const device = guest();
    const index = await renderPreferences(device.client, everySection(false));
    const headings = expectIndexMatchesPage(index);
    for (const account of ['pref-name', 'pref-phone', 'pref-sync', 'pref-webhooks', 'pref-passkeys'])
      expect(headings).not.toContain(account);
    expect(headings.at(-1)).toBe('pref-data');
    expect(indexLinks(index).at(-1)).toEqual({ href: '#pref-data', label: 'Data Management' });
  });
});

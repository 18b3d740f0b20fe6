import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { picturesWanted } from '../lib/pictures';

export type Theme = 'light' | 'dark';

/** An axe finding reduced to what a failure message needs. */
export type A11yViolation = { id: string; impact: string; help: string; targets: string[] };

// Must match ONBOARDING_STORAGE_KEY and the zustand persist format in src/client/stores/onboardingStore.ts.
const ONBOARDING_STORAGE_KEY = 'onboarding-storage';

/** The app shell: what every screen has, whatever route it is on. */
export class AppPage {
  /** Whatever React rendered into #root: present once the app has booted. */
  readonly rendered: Locator;
  /** The header's home link carries the brand; the phone and desktop headers each have one, one is shown. */
  readonly brand: Locator;

  constructor(readonly page: Page) {
    this.rendered = page.locator('#root > *').first();
    this.brand = page.getByRole('banner').getByRole('link', { name: /^Outpost\b/ });
  }

  /**
   * Marks the first-visit tutorial as done before any page script runs, for specs about something
   * else: the tutorial is a modal that hides the rest of the app.
   */
  async skipOnboarding() {
    await this.page.addInitScript((key) => {
      const state = {
        hasCompletedOnboarding: true,
        currentStep: 0,
        skippedAt: new Date().toISOString(),
        completedAt: null,
      };
      localStorage.setItem(key, JSON.stringify({ state, version: 0 }));
    }, ONBOARDING_STORAGE_KEY);
  }

  /** Opens a route; callers check the response before waiting for the shell, so a bad page fails fast. */
  async goto(route = '/') {
    const response = await this.page.goto(route);
    if (!response) throw new Error(`No response for ${route}`);
    return response;
  }

  /** Sets the theme the way the app does: a `dark` class on <html>. */
  async setTheme(theme: Theme) {
    // Colours change through a transition, cut to 0.01 ms under reduced motion, but a transition moves
    // only when a frame is produced: until the next frames, computed styles (what axe reads) are still
    // the old theme's, and axe found light text on the light theme's background (motionSettled).
    await this.page.evaluate(
      (dark) => document.documentElement.classList.toggle('dark', dark),
      theme === 'dark',
    );
    await this.motionSettled();
  }

  /**
   * Waits two frames, then for every CSS transition and finite animation running then (an endless one,
   * a skeleton's pulse, never finishes): axe reads the colours they move, and once measured a <time> in a
   * dialog mid-way after a resize and a theme switch on a loaded machine. At most 5 s: a paused one is
   * not waited out.
   */
  async motionSettled() {
    await this.page.evaluate(async () => {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const finite = document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
      const finished = Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
      await Promise.race([finished, new Promise((done) => setTimeout(done, 5_000))]);
    });
  }

  /** Serious and critical WCAG 2 A/AA violations on the current page, or inside `within` (a selector). */
  async seriousA11yViolations(within?: string): Promise<A11yViolation[]> {
    await this.motionSettled();
    const builder = new AxeBuilder({ page: this.page });
    const results = await (within ? builder.include(within) : builder)
      .withTags(['wcag2a', 'wcag2aa'])
      .analyze();
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? 'unknown',
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
  }

  /**
   * The screen as it is at the phone's (390×844) and the desktop's (1280×800) size, light and dark,
   * into .tmp/shots/{name}-{size}-{theme}.png (test-results is emptied by every run), to be looked at
   * after it; axe checks the page (or what `within` selects) in each. With E2E_PICTURES=off (CI) it
   * takes no picture and still checks each size and theme.
   */
  async lookPictures(name: string, within?: string) {
    const folder = '.tmp/shots';
    if (picturesWanted) await mkdir(folder, { recursive: true });
    for (const [size, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await this.page.setViewportSize(viewport);
      for (const theme of ['light', 'dark'] as const) {
        await this.setTheme(theme);
        // A moment for the theme's colours and the new width to settle (as shotsInto).
        await this.page.waitForTimeout(150);
        if (picturesWanted) await this.page.screenshot({ path: `${folder}/${name}-${size}-${theme}.png` });
        expect(await this.seriousA11yViolations(within), `${name} ${size} ${theme}`).toEqual([]);
      }
    }
    await this.setTheme('light');
    await this.page.setViewportSize({ width: 1280, height: 800 });
  }

  /**
   * Waits until the service worker is active, i.e. it has precached every screen's chunk: only then
   * does a screen opened for the first time work offline (the worker registers once the page is idle).
   */
  async waitForOfflineReady() {
    await this.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
  }

  /** Saves a full-page screenshot under test-results/screenshots/<project>/ and attaches it to the report. */
  async screenshot(testInfo: TestInfo, name: string): Promise<Buffer | null> {
    if (!picturesWanted) {
      // What a capture waited for: the theme's colour transitions to land before axe reads contrast.
      await this.motionSettled();
      return null;
    }
    const file = `test-results/screenshots/${testInfo.project.name}/${name}.png`;
    const body = await this.page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(name, { body, contentType: 'image/png' });
    return body;
  }

  /**
   * Pictures of the screen at the phone's (390×844) and the desktop's (1280×800) size, light and
   * dark, under test-results/screenshots/{folder}/ and a copy in /tmp/outpost-shots/{folder}/ (every
   * run empties test-results); axe checks each theme once, at the desktop's size.
   */
  async shotsInto(testInfo: TestInfo, folder: string, name: string, fullPage: boolean) {
    for (const [size, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      await this.page.setViewportSize(viewport);
      for (const theme of ['light', 'dark'] as const) {
        await this.setTheme(theme);
        // A frame for the theme's colours and the new width to settle.
        await this.page.waitForTimeout(150);
        if (picturesWanted) {
          const file = `test-results/screenshots/${folder}/${name}-${size}-${theme}.png`;
          const body = await this.page.screenshot({ path: file, fullPage });
          await testInfo.attach(`${name}-${size}-${theme}`, { body, contentType: 'image/png' });
          // The same picture's bytes: a second screenshot cost as much as the first.
          const copy = `/tmp/outpost-shots/${folder}/${name}-${size}-${theme}.png`;
          await mkdir(path.dirname(copy), { recursive: true });
          await writeFile(copy, body);
        } else await this.motionSettled();
        if (size === 'desktop') expect(await this.seriousA11yViolations(), `${name} ${theme}`).toEqual([]);
      }
    }
    await this.setTheme('light');
    await this.page.setViewportSize({ width: 1280, height: 800 });
  }
}

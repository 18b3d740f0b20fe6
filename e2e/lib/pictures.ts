import type { Locator, Page, PageScreenshotOptions } from '@playwright/test';

type Theme = 'light' | 'dark';

/** What can switch the app's own theme (the page models' setTheme). */
interface Themed {
  setTheme(theme: Theme): Promise<unknown>;
}

/**
 * Whether this run saves pictures: E2E_PICTURES=off (CI, whose only kept artifact is its log) takes
 * none and keeps every check beside them (axe, what the screen shows).
 */
export const picturesWanted = process.env.E2E_PICTURES !== 'off';

const SIZES = [
  [1280, 800, 'desktop'],
  [390, 844, 'phone'],
] as const;

/**
 * The screen as it is now at desktop 1280×800 and phone 390×844, light and dark, saved as
 * test-results/screenshots/{folder}/{name}-{size}-{theme}.png, then back to desktop and light. Motion
 * is reduced, so no toast or dialog is caught mid-slide; `fullPage` takes the desktop's whole page
 * (the phone's bars are fixed, so its picture is the screen); `focus` is scrolled to the middle of
 * the screen at each size.
 */
export async function takePictures(
  page: Page,
  app: Themed,
  folder: string,
  name: string,
  { fullPage = false, focus }: { fullPage?: boolean; focus?: Locator } = {},
): Promise<void> {
  // With none taken, the page still ends as after them (a phone's test goes on at the desktop's size).
  for (const [width, height, size] of picturesWanted ? SIZES : []) {
    await page.setViewportSize({ width, height });
    await focus?.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      await app.setTheme(theme);
      // Two frames: the theme's colours are painted before the picture is taken.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      await page.screenshot({
        path: `test-results/screenshots/${folder}/${name}-${size}-${theme}.png`,
        fullPage: fullPage && size === 'desktop',
      });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await app.setTheme('light');
}

/** A picture of the page (with its options) or of one element for a person to look at; none with E2E_PICTURES=off. */
export async function savePicture(
  target: Page | Locator,
  options: PageScreenshotOptions & { path: string },
): Promise<void> {
  if (!picturesWanted) return;
  if ('goto' in target) await target.screenshot(options);
  else await target.screenshot({ path: options.path });
}

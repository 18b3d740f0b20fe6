/**
 * `npm run bench -- lighthouse`: Lighthouse 12 with its default (mobile) config against the built
 * app on the real server, in Debian's Chromium (chrome-launcher, never a downloaded browser), on
 * /login and on Home after onboarding. Budgets: performance ≥ 95, accessibility 100, CLS ≤ 0.05.
 *
 * Home needs onboarding done, which lives in localStorage. Lighthouse normally resets storage, so for
 * Home the flag is seeded first from /api/me (a JSON answer on the same origin: no app asset gets into
 * the HTTP cache) and storage reset is turned off for that run.
 */
import { writeFile } from 'node:fs/promises';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { ONBOARDED_STORAGE, startAppServer } from './lib/appServer';
import { check, heading, info, skip } from './lib/report';

interface Target {
  name: string;
  path: string;
  onboarded: boolean;
}

const TARGETS: Target[] = [
  { name: '/login', path: '/login', onboarded: false },
  { name: 'Home (onboarded)', path: '/', onboarded: true },
];

async function seedOnboarded(port: number, origin: string): Promise<void> {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/api/me`);
    await page.evaluate(
      (key, value) => localStorage.setItem(key, value),
      ONBOARDED_STORAGE.key,
      ONBOARDED_STORAGE.value,
    );
    await page.close();
  } finally {
    await browser.disconnect();
  }
}

export async function run(args: string[]): Promise<void> {
  if (!chromiumAvailable()) {
    skip('Lighthouse', `no Chromium at ${chromiumPath}`);
    return;
  }
  const verbose = args.includes('--verbose');
  const server = await startAppServer();
  try {
    for (const target of TARGETS) {
      heading(`${target.name} (${server.url}${target.path})`);
      // A fresh profile per page, so one page's cache and storage never help the other.
      const chrome = await chromeLauncher.launch({
        chromePath: chromiumPath,
        chromeFlags: ['--headless=new', ...chromiumArgs],
      });
      try {
        if (target.onboarded) await seedOnboarded(chrome.port, server.url);
        const result = await lighthouse(
          server.url + target.path,
          {
            port: chrome.port,
            logLevel: 'error',
            output: 'json',
            onlyCategories: ['performance', 'accessibility'],
            disableStorageReset: target.onboarded,
          },
          undefined,
        );
        if (!result) throw new Error('Lighthouse returned no result');
        const { lhr } = result;
        const dump = args.find((a) => a.startsWith('--json='))?.slice('--json='.length);
        if (dump) {
          const file = `${dump}/${target.onboarded ? 'home' : target.path.replace(/\W/g, '') || 'root'}.json`;
          await writeFile(file, JSON.stringify(lhr, null, 1));
          info(target.name, 'report', file);
        }
        if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
        for (const id of [
          'first-contentful-paint',
          'largest-contentful-paint',
          'total-blocking-time',
          'speed-index',
        ]) {
          const audit = lhr.audits[id];
          if (audit) info(target.name, audit.title, audit.displayValue ?? String(audit.numericValue));
        }
        check({
          subject: target.name,
          metric: 'performance',
          value: String(score('performance')),
          budget: '>= 95',
          ok: score('performance') >= 95,
        });
        check({
          subject: target.name,
          metric: 'accessibility',
          value: String(score('accessibility')),
          budget: '100',
          ok: score('accessibility') === 100,
        });
        check({
          subject: target.name,
          metric: 'CLS',
          value: cls.toFixed(3),
          budget: '<= 0.05',
          ok: cls <= 0.05,
        });
        // What to fix: every audit that did not pass (scored below 0.9) in the two categories.
        const failing = Object.values(lhr.audits).filter(
          (a) =>
            a.score !== null &&
            a.score < 0.9 &&
            a.scoreDisplayMode !== 'informative' &&
            a.scoreDisplayMode !== 'manual',
        );
        for (const audit of failing) {
          console.log(`    below par: ${audit.id} (${audit.score}) ${audit.displayValue ?? ''}`);
          if (verbose) console.log(JSON.stringify(audit.details ?? null).slice(0, 1500));
        }
      } finally {
        chrome.kill();
      }
    }
  } finally {
    await server.stop();
  }
}

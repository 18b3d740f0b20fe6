import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './scripts/lib/chromium';
import { freePort } from './scripts/lib/freePort';
import { bin, repoRoot } from './scripts/lib/paths';
import { E2E_OIDC_CLIENT_ID, E2E_OIDC_NAME } from './testkit/e2eOidc';
import { selfSignedCertificate } from './testkit/selfSignedCertificate';

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

// Playwright loads this file in the runner and again in every worker. The runner picks the port and
// data folder and leaves them in process.env, which the workers inherit, so all agree on one server.
if (!process.env.E2E_PORT) process.env.E2E_PORT = String(await freePort());
if (!process.env.E2E_DATA_DIR) {
  const created = mkdtempSync(path.join(tmpdir(), 'outpost-e2e-'));
  process.env.E2E_DATA_DIR = created;
  process.on('exit', () => rmSync(created, { recursive: true, force: true }));
}
const dataDir = process.env.E2E_DATA_DIR;
// The test OpenID provider (e2e/oidc.spec.ts): its port, certificate and client secret are chosen
// here, before any server starts, because the app server reads NODE_EXTRA_CA_CERTS once at its start.
if (!process.env.E2E_OIDC_PORT) process.env.E2E_OIDC_PORT = String(await freePort());
if (!process.env.E2E_OIDC_DIR) {
  const created = mkdtempSync(path.join(tmpdir(), 'outpost-e2e-oidc-'));
  selfSignedCertificate(created);
  process.env.E2E_OIDC_DIR = created;
  process.env.E2E_OIDC_SECRET = randomBytes(24).toString('base64url');
  process.on('exit', () => rmSync(created, { recursive: true, force: true }));
}
const oidcDir = process.env.E2E_OIDC_DIR;
const oidcIssuer = `https://localhost:${process.env.E2E_OIDC_PORT}`;
// The browser suite always runs against a fresh embedded database, never a configured PostgreSQL.
delete process.env.DATABASE_URL;

const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
const ci = process.env.CI === 'true' || process.env.E2E === '1';

// Specs whose screens or paths differ on a phone (layout, navigation, dialogs, menus, every screen's
// picture and audit, a finger's drag) run in both projects; the rest test data, sync and server
// behaviour that no viewport changes (sign-in with a code, import and export, polish, the smoke
// checks, the campaign list's live updates), so they run on the desktop only: the whole CI run then
// fits its 30 minutes.
const PHONE_SPECS = [
  'attachments',
  'calendarAgenda',
  'journey',
  'layout',
  'screens',
  'timelineTouch',
  'toasts',
  'today',
].map((name) => `${name}.spec.ts`);

const reporter: ReporterDescription[] = [['list'], ['html', { open: 'never' }]];
// scripts/test.ts reads the counts for its summary line from this file.
if (process.env.E2E_JSON_REPORT) reporter.push(['json', { outputFile: process.env.E2E_JSON_REPORT }]);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: ci,
  // CI retries a failed test once, and the summary names each that needed it (scripts/lib/steps.ts):
  // on two shared cores, one test of the 150 timed out waiting in about every other run, a different
  // one each time, each passing 3 of 3 alone. A test that fails twice still fails the run.
  retries: ci ? 1 : 0,
  // Two browsers at once on CI's two cores: a test mostly waits (on the app, the server, the
  // database), so the second worker uses the idle time; locally Playwright picks by core count.
  workers: ci ? 2 : undefined,
  // With two workers sharing two cores a test runs up to twice as long as alone, and an expectation
  // that takes a second alone may take several: the defaults (60 s, 5 s) are doubled.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter,
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    // The service worker precaches every screen's chunk in each new context: a third of a test's CPU
    // on two cores. Specs that go offline or test updates allow it with test.use.
    serviceWorkers: 'block',
    // No transitions to wait out and no frames to paint for them (most specs asked for it one by one).
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    // A failed test keeps its trace: every action with the page's DOM before and after, which shows
    // what was on screen. The screencast beside it cost a fifth of the suite's CPU on two cores
    // (two specs, two workers: 2.1 min with it, 1.7 without, 1.6 with no trace at all).
    // CI keeps no files, only its log, and recording the DOM at every action for a trace nobody can
    // open cost a tenth of the suite's CPU: .ci/run sets E2E_TRACE=off (three specs: 185 s → 162 s).
    trace:
      process.env.E2E_TRACE === 'off'
        ? 'off'
        : { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
  },
  projects: [
    {
      // The phone's size in CSS pixels is what its layout answers to; a device scale of 2 painted and
      // photographed four times the pixels for the same layout, on CI's two cores.
      name: 'phone',
      testMatch: PHONE_SPECS,
      use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
    },
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
  ],
  // In order: the provider first (the app finds it only at the first sign-in, but a spec may start
  // one as soon as the app answers).
  webServer: [
    {
      command: `"${bin('tsx')}" testkit/oidcProviderServer.ts`,
      cwd: repoRoot,
      url: `${oidcIssuer}/.well-known/openid-configuration`,
      // The runner's health check does not know the run's certificate; the app server does.
      ignoreHTTPSErrors: true,
      env: {
        E2E_OIDC_PORT: String(process.env.E2E_OIDC_PORT),
        E2E_OIDC_DIR: oidcDir,
        E2E_OIDC_SECRET: String(process.env.E2E_OIDC_SECRET),
        E2E_OIDC_REDIRECT_URI: `http://localhost:${port}/api/auth/oidc/callback`,
      },
      timeout: 60_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      stdout: 'pipe',
      stderr: 'pipe',
      reuseExistingServer: false,
    },
    {
      command: `"${bin('tsx')}" src/server/index.ts`,
      cwd: repoRoot,
      url: `${baseURL}/api/health`,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The webhooks spec's receiver listens on 127.0.0.1 over http.
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        // Passkeys belong to a domain, never an IP: the passkeys spec opens the app at localhost, the
        // relying party; no other spec depends on PUBLIC_URL.
        PUBLIC_URL: `http://localhost:${port}`,
        // Single sign-on against the test provider above (e2e/oidc.spec.ts); the sign-in page shows
        // its button in every spec, as on a deployment that has it configured.
        OIDC_ISSUER: oidcIssuer,
        OIDC_CLIENT_ID: E2E_OIDC_CLIENT_ID,
        OIDC_CLIENT_SECRET: String(process.env.E2E_OIDC_SECRET),
        OIDC_NAME: E2E_OIDC_NAME,
        NODE_EXTRA_CA_CERTS: `${oidcDir}/cert.pem`,
      },
      // A fresh database runs every migration before the health check answers.
      timeout: 120_000,
      // SIGTERM lets the server close the embedded database cleanly before its folder is removed.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      // LOG_LEVEL=warn keeps request logs out of the test list while server errors still show.
      stdout: 'pipe',
      stderr: 'pipe',
      reuseExistingServer: false,
    },
  ],
});

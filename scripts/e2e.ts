import { spawn } from 'node:child_process';
import { chromiumAvailable, chromiumPath } from './lib/chromium';
import { ensureClientBuild } from './lib/clientBuild';
import { bin, repoRoot } from './lib/paths';

// Runs the browser suite against the built app; extra arguments go to `playwright test`
// (e.g. `npm run test:e2e -- --project=phone e2e/smoke.spec.ts`).
if (!chromiumAvailable()) {
  console.error(
    `No Chromium at ${chromiumPath}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}

await ensureClientBuild();

const playwright = spawn(bin('playwright'), ['test', ...process.argv.slice(2)], {
  cwd: repoRoot,
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  stdio: 'inherit',
});
// Ctrl-C reaches Playwright directly (same process group); waiting lets it stop its web server first.
process.on('SIGINT', () => {});
playwright.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

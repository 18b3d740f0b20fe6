import { type ChildProcess, spawn } from 'node:child_process';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { freePort } from '../scripts/lib/freePort';
import { bin, repoRoot } from '../scripts/lib/paths';
import { tempDataDir } from './lib/servers';
import { freshPhone, Outpost } from './pages/Outpost';

/**
 * Sign-in with one-time codes (AUTH_MODE=otp) in a real browser. The harness's shared server runs in
 * demo mode, so this spec starts its own, and reads the codes where the console SMS provider puts
 * them: the server's log on stdout (`[sms] to <phone>: Your Outpost sign-in code is NNNNNN. …`).
 */
interface OtpServer {
  url: string;
  /** Every code the server has texted to `phone`, oldest first. */
  codesFor(phone: string): string[];
  stop(): Promise<void>;
}

async function startOtpServer(dataDir: string): Promise<OtpServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    AUTH_MODE: 'otp',
    SMS_PROVIDER: 'console',
    // The SMS line is logged at info; request logs come along, which is fine for a log we only scan.
    LOG_LEVEL: 'info',
  };
  delete env.DATABASE_URL;
  const child: ChildProcess = spawn(bin('tsx'), ['src/server/index.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    log += chunk;
  });

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the otp server exited with ${child.exitCode}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`the otp server at ${url} did not start within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    codesFor(phone) {
      const escaped = phone.replace(/[+]/g, '\\+');
      const pattern = new RegExp(`\\[sms\\] to ${escaped}: Your Outpost sign-in code is (\\d{6})`, 'g');
      return [...log.matchAll(pattern)].map((m) => m[1] ?? '');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        // SIGTERM lets the embedded database close cleanly before its folder is removed.
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      });
    },
  };
}

let server: OtpServer;
let removeDataDir: () => void = () => {};

test.beforeAll(async () => {
  const data = tempDataDir();
  removeDataDir = data.remove;
  server = await startOtpServer(data.dir);
});
test.afterAll(async () => {
  await server?.stop();
  removeDataDir();
});

/** Waits for the n-th code texted to `phone` (1-based) and returns it. */
async function nthCode(phone: string, n: number): Promise<string> {
  await expect.poll(() => server.codesFor(phone).length, { message: `code #${n} for ${phone}` }).toBe(n);
  return server.codesFor(phone)[n - 1] ?? '';
}

/** Any six digits that are not `code`. */
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

/** The header's account control, which only a signed-in user has (phone: 'Account', desktop: a menu). */
function signedInHeader(app: Outpost): Locator {
  const banner = app.page.getByRole('banner');
  return app.isPhone
    ? banner.getByRole('button', { name: 'Account', exact: true })
    : banner.getByRole('button', { name: 'Account menu' });
}

async function expectSignedInAs(page: Page, app: Outpost, phone: string) {
  // The celebration after a first sign-in covers the header until the first sync ends (see
  // expectHomeAfterSignIn), which on a busy machine takes longer than a plain expectation waits.
  await expect(signedInHeader(app)).toBeVisible({ timeout: 20_000 });
  const me = await page.request.get(`${server.url}/api/me`);
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { user: { phone: string } }).user.phone).toBe(phone);
}

test('/login: send a code, a wrong code is refused with the tries left, the texted code signs in', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  await app.skipOnboarding();
  const phone = freshPhone();

  await app.goto(`${server.url}/login`);
  await expect(app.heading('Sign In to Outpost')).toBeVisible();
  await app.main.getByLabel('Phone number').fill(phone);
  await app.main.getByLabel('Name').fill('Otp Olga');
  await app.main.getByRole('button', { name: 'Send code' }).click();
  await expect(app.toast('Code sent')).toBeVisible();
  const code = await nthCode(phone, 1);

  const field = app.main.getByLabel('Verification code');
  await field.fill(wrongFor(code));
  await app.main.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(app.main.getByText('The code is not correct. 4 tries left.')).toBeVisible();
  await expect(app.toast('Invalid code')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await field.fill(code);
  await app.main.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(app.heading('Home')).toBeVisible();
  await expectSignedInAs(page, app, phone);
});

test('onboarding: Sign In, phone, the texted code (a wrong one first), skip the import, Get Started', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new Outpost(page);
  const phone = freshPhone();
  await app.goto(`${server.url}/`);
  await expect(page).toHaveURL(/\/onboarding$/);
  const dialog = page.getByRole('dialog', { name: 'Welcome' });
  const next = dialog.getByRole('button', { name: 'Next' });

  await next.click();
  await dialog.getByText('Sign In', { exact: true }).click();
  await next.click();
  await dialog.getByLabel('Phone number').fill(phone);
  await next.click();
  await expect(app.toast('Code sent')).toBeVisible();
  const code = await nthCode(phone, 1);

  await test.step('code step: no test-code hint; a wrong code, then the real one', async () => {
    await expect(dialog.getByText('Step 4 of 9')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Resend code' })).toBeVisible();
    await expect(dialog.getByText(/The code 123456 is accepted/)).toHaveCount(0);
    const field = dialog.getByLabel('Verification code');
    await field.fill(wrongFor(code));
    await next.click();
    await expect(dialog.getByText('The code is not correct. 4 tries left.')).toBeVisible();
    await expect(app.toast('Invalid code')).toBeVisible();
    await expect(dialog.getByText('Step 4 of 9')).toBeVisible();
    await field.fill(code);
    await next.click();
    await expect(app.toast('Welcome!')).toBeVisible();
  });

  await test.step('skip the contact import, then the tour to Get Started', async () => {
    await expect(dialog.getByText('Step 5 of 9')).toBeVisible();
    await dialog.getByRole('button', { name: 'Skip for Now' }).click();
    for (let step = 6; step <= 8; step++) {
      await expect(dialog.getByText(`Step ${step} of 9`)).toBeVisible();
      await next.click();
    }
    await dialog.getByRole('button', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(app.heading('Home')).toBeVisible();
  });

  await expectSignedInAs(page, app, phone);
});

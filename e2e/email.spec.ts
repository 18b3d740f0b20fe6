import { type BrowserContext, expect, test } from '@playwright/test';
import { freePort } from '../scripts/lib/freePort';
import { startMailServer, type TestMailServer } from '../testkit/mailServer';
import { type OwnServer, startOwnServer, tempDataDir } from './lib/servers';
import { EmailPages, linkIn } from './pages/Email';
import { escapeUntilGone, freshPhone, uniqueTitle } from './pages/Outpost';

const INBOUND_DOMAIN = 'in.outpost.test';

/**
 * The harness's shared server sends no mail: this spec runs its own, with SMTP_URL at a test SMTP
 * server the spec starts, and mail in on (INBOUND_SMTP_PORT) so campaigns have a secret address.
 */
async function serverWithMail(mail: TestMailServer, dataDir: string): Promise<OwnServer> {
  const settings: Record<string, string> = {
    SMTP_URL: mail.url(),
    MAIL_FROM: 'Outpost <outpost@outpost.test>',
    INBOUND_SMTP_PORT: String(await freePort()),
    INBOUND_DOMAIN,
  };
  // startOwnServer passes this process's environment on: set for the start, then put back.
  const before = Object.fromEntries(Object.keys(settings).map((k) => [k, process.env[k]]));
  Object.assign(process.env, settings);
  try {
    return await startOwnServer({ dataDir });
  } finally {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

// One server for the file: its tests run in order in one worker (a failure does not skip the rest).
test.describe.configure({ mode: 'default' });

let mail: TestMailServer;
let server: OwnServer;
let removeData: () => void;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  mail = await startMailServer();
  const data = tempDataDir();
  removeData = data.remove;
  server = await serverWithMail(mail, data.dir);
});

test.afterAll(async () => {
  await server?.stop();
  await mail?.close();
  removeData?.();
});

test.beforeEach(() => {
  test.skip(
    test.info().project.name !== 'desktop',
    'runs in the desktop project only (it takes its own phone shots)',
  );
});

/** The first mail to `address` after the first `after` mails (of one X-Outpost-Kind), once it has come. */
async function mailTo(address: string, after = 0, kind?: string) {
  let found: (typeof mail.received)[number] | undefined;
  await expect
    .poll(
      () => {
        found = mail.received
          .slice(after)
          .find(
            (m) =>
              m.envelope.to.includes(address) && (!kind || m.parsed.headers.get('x-outpost-kind') === kind),
          );
        return found !== undefined;
      },
      { timeout: 75_000 },
    )
    .toBe(true);
  return found!;
}

async function contextOn(browser: import('@playwright/test').Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
}

test('Preferences › Email: an address verified from its mail, a switch and the digest hour kept over a reload, and a test email that arrives', async ({
  browser,
}) => {
  // Twelve pictures, each with its axe check, and a sign-in that waits for the celebration: about
  // 90 s on a loaded machine, the default's whole budget.
  test.setTimeout(180_000);
  const context = await contextOn(browser);
  try {
    const page = await context.newPage();
    const app = await EmailPages.signedInAs(page, freshPhone(), 'Mail Reader');
    const address = `reader-${Date.now().toString(36)}@example.test`;

    await test.step('add an address: the section waits for its link, and the link comes by mail', async () => {
      await app.openPreferences();
      await expect(app.section.getByText('This server does not send email.')).toHaveCount(0);
      await app.addAddress(address);
      await expect(app.section.getByRole('button', { name: 'Resend the link' })).toBeVisible();
      await app.shots('preferences-email-waiting', app.section);
    });

    const verification = await test.step('the verification mail reaches the SMTP server', async () => {
      await expect.poll(() => mail.received.some((m) => m.envelope.to.includes(address))).toBe(true);
      return mail.received.find((m) => m.envelope.to.includes(address))!;
    });

    await test.step('its link verifies the address', async () => {
      await app.goto(linkIn(verification, 'verify-email'));
      await expect(page.getByText(`Your address ${address} is verified.`)).toBeVisible();
      await app.shots('verify-email', null);
      await page.getByRole('link', { name: 'Back to Preferences' }).click();
      await expect(app.section.getByText('Verified', { exact: true })).toBeVisible();
      // The link leads to the section, not the top of a long page.
      await expect(app.section.getByRole('heading', { name: 'Email', exact: true })).toBeInViewport();
    });

    await test.step('the same link a second time says it is used up', async () => {
      await app.goto(linkIn(verification, 'verify-email'));
      await expect(page.getByRole('heading', { name: 'Your address is not verified' })).toBeVisible();
      await expect(page.getByRole('alert')).toContainText('That link has expired or was already used.');
      await expect(page.getByRole('link', { name: 'Send a new link from Preferences' })).toBeVisible();
    });

    await test.step('a switch turned on from the keyboard is kept over a reload', async () => {
      await app.openPreferences();
      await expect(app.kindSwitch('Comments')).toHaveAttribute('aria-checked', 'false');
      await app.toggleKind('Comments');
      await expect(app.kindSwitch('Comments')).toHaveAttribute('aria-checked', 'true');
      await page.reload();
      await expect(app.kindSwitch('Comments')).toHaveAttribute('aria-checked', 'true');
    });

    await test.step('the digest hour goes with the browser’s time zone and is kept', async () => {
      const sent = await app.chooseDigestHour(8);
      expect(sent.digest_hour).toBe(8);
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(sent.time_zone).toBe(zone);
      await page.reload();
      await expect(app.digest).toHaveValue('8');
      await expect(app.section.getByText(`in your time zone (${zone})`)).toBeVisible();
    });

    await test.step('Send a test email: it arrives', async () => {
      const before = mail.received.length;
      await app.section.getByRole('button', { name: 'Send a test email' }).click();
      await expect(page.getByText('Test email sent', { exact: true })).toBeVisible();
      const all = await mail.waitFor(before + 1);
      expect(all.slice(before).some((m) => m.envelope.to.includes(address))).toBe(true);
    });

    await test.step('when the mail server refuses, its own words show', async () => {
      mail.failNext(1, 'Mailbox full for today', 552);
      await app.section.getByRole('button', { name: 'Send a test email' }).click();
      await expect(app.section.getByRole('alert')).toContainText('Mailbox full for today');
    });

    await test.step('pictures and axe of Preferences › Email', async () => {
      await page.reload();
      await expect(app.section.getByText('Verified', { exact: true })).toBeVisible();
      await app.shots('preferences-email', app.section);
    });
  } finally {
    await context.close();
  }
});

test('a campaign’s ‘Add tasks by email…’ shows its secret address, a new address replaces it, an editor has it too and a viewer has no menu', async ({
  browser,
}) => {
  // Three sign-ins (the owner, an editor, a viewer), each waiting for its celebration, and eight
  // pictures with their axe checks: near the default's 90 s on a loaded machine.
  test.setTimeout(180_000);
  const context = await contextOn(browser);
  try {
    const page = await context.newPage();
    const app = await EmailPages.signedInAs(page, freshPhone(), 'Campaign Owner');
    const title = uniqueTitle('Inbox campaign');
    const campaign = await app.post<{ id: number }>('/api/items', { title, type: 'campaign' });

    const dialog = await app.openAddByEmail(campaign.id, title);
    const field = dialog.getByTestId('inbound-address');
    const pattern = new RegExp(`^c-[a-z0-9]{22}@${INBOUND_DOMAIN.replaceAll('.', '\\.')}$`);
    await expect(field).toHaveValue(pattern);
    const first = await field.inputValue();
    await app.shots('campaign-email-dialog', null);

    await dialog.getByRole('button', { name: 'New address…' }).click();
    const question = page.getByRole('alertdialog', { name: 'Make a new address?' });
    await expect(question).toContainText('stops working');
    await question.getByRole('button', { name: 'Make a new address' }).click();
    await expect(field).not.toHaveValue(first);
    await expect(field).toHaveValue(pattern);
    const current = await field.inputValue();
    // The question closes first: an Escape while it is still leaving is its own, not the dialog's.
    await expect(question).toBeHidden();
    await escapeUntilGone(page, dialog);

    await test.step('an editor has the menu item, a viewer has no menu', async () => {
      for (const role of ['editor', 'viewer'] as const) {
        const invite = await app.post<{ token: string }>(`/api/campaigns/${campaign.id}/invites`, { role });
        const other = await contextOn(browser);
        try {
          const member = await EmailPages.signedInAs(await other.newPage(), freshPhone(), `Campaign ${role}`);
          await member.post(`/api/invites/${invite.token}/accept`, {});
          await member.goto(`/campaigns/${campaign.id}`);
          await expect(member.heading(title)).toBeVisible({ timeout: 20_000 });
          const menu = member.page.getByRole('button', { name: `More actions for ${title}` });
          if (role === 'viewer') {
            await expect(member.main.getByRole('note')).toBeVisible();
            await expect(menu).toHaveCount(0);
          } else {
            const shown = await member.openAddByEmail(campaign.id, title);
            // The campaign's one address: the editor sees the owner's new one.
            await expect(shown.getByTestId('inbound-address')).toHaveValue(current);
          }
        } finally {
          await other.close();
        }
      }
    });
  } finally {
    await context.close();
  }
});

test('the unsubscribe page asks before it stops the digest, and says so when the link is not good', async ({
  browser,
}) => {
  const context = await contextOn(browser);
  try {
    const page = await context.newPage();
    const app = new EmailPages(page);
    // Signed out, and on a browser that never saw the tutorial: a mail's link opens all the same.
    await app.goto('/unsubscribe?token=42.AAAAAAAAAAAAAAAAAAAAAA');
    await expect(app.heading('Stop the daily digest?')).toBeVisible();
    await app.shots('unsubscribe', null);
    await page.getByRole('button', { name: 'Stop the daily digest' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open Preferences' })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('a guest’s Preferences says email needs an account, with a way to sign in', async ({ browser }) => {
  const context = await contextOn(browser);
  try {
    const page = await context.newPage();
    const app = new EmailPages(page);
    await app.skipOnboarding();
    await app.openPreferences();
    await expect(app.section.getByText('Email needs an account')).toBeVisible();
    await app.section.getByRole('link', { name: 'Sign in to get email' }).click();
    await expect(page).toHaveURL(/\/login$/);
  } finally {
    await context.close();
  }
});

test('signed out, the verification link asks to sign in and comes back with its token to verify; another account cannot take the address', async ({
  browser,
}) => {
  const phone = freshPhone();
  const address = `returner-${Date.now().toString(36)}@example.test`;
  const first = await contextOn(browser);
  const second = await contextOn(browser);
  try {
    const app = await EmailPages.signedInAs(await first.newPage(), phone, 'Link Opener');
    await app.openPreferences();
    const before = mail.received.length;
    await app.addAddress(address);
    const link = linkIn(await mailTo(address, before), 'verify-email');

    // Another browser, signed out, where the mail was opened.
    const page = await second.newPage();
    const other = new EmailPages(page);
    await other.skipOnboarding();
    await other.goto(link);
    await expect(other.heading('Sign in to verify your address')).toBeVisible();
    expect(await other.seriousA11yViolations()).toEqual([]);
    await other.main.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(other.heading('Sign In to Outpost')).toBeVisible();
    await other.main.getByLabel('Phone number').fill(phone);
    await other.main.getByLabel('Name').fill('Link Opener');
    await other.main.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText(`Your address ${address} is verified.`)).toBeVisible({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/verify-email');

    await test.step('another account cannot take the verified address: the server’s words show', async () => {
      const elsewhere = await contextOn(browser);
      try {
        const third = await EmailPages.signedInAs(await elsewhere.newPage(), freshPhone(), 'Address Taker');
        await third.openPreferences();
        await third.section.getByLabel('Email address').fill(address);
        await third.section.getByRole('button', { name: /send the link/ }).click();
        await expect(third.section.getByRole('alert')).toHaveText(
          'Another account already uses this email address.',
        );
        await expect(third.section.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
      } finally {
        await elsewhere.close();
      }
    });
  } finally {
    await first.close();
    await second.close();
  }
});

test('the daily digest comes at the chosen hour, and its unsubscribe link stops it after one press', async ({
  browser,
}) => {
  // The digest is written on the server's minute tick: up to a minute's wait.
  test.setTimeout(180_000);
  const context = await contextOn(browser);
  try {
    const page = await context.newPage();
    const app = await EmailPages.signedInAs(page, freshPhone(), 'Digest Reader');
    const address = `digest-${Date.now().toString(36)}@example.test`;
    await app.openPreferences();
    let before = mail.received.length;
    await app.addAddress(address);
    await app.openVerification(linkIn(await mailTo(address, before), 'verify-email'), address);
    // Something overdue, so the digest has something to say.
    await app.post('/api/items', {
      title: uniqueTitle('Overdue for the digest'),
      type: 'todo',
      due_date: '2020-01-02',
    });

    await app.openPreferences();
    // The hour now in the browser's zone; a minute before the hour turns, wait for the next one.
    if ((await page.evaluate(() => new Date().getMinutes())) === 59) await page.waitForTimeout(61_000);
    const hour = await page.evaluate(() => new Date().getHours());
    before = mail.received.length;
    await app.chooseDigestHour(hour);
    const digest = await mailTo(address, before, 'digest');
    // One-click unsubscribe for mail programs (mailparser folds List-* headers, so read the bytes).
    expect(digest.raw.toString('latin1')).toMatch(
      /^List-Unsubscribe:\s*<[^>]+\/api\/email\/unsubscribe\?token=/im,
    );

    // The mail's link is the API's, which sends the browser on to the app's page.
    const url = new URL(
      linkIn(digest, 'unsubscribe').replace('/unsubscribe', '/api/email/unsubscribe'),
      server.url,
    );
    await page.goto(url.toString());
    await expect(page).toHaveURL(/\/unsubscribe\?token=/);
    await expect(app.heading('Stop the daily digest?')).toBeVisible();
    await page.getByRole('button', { name: 'Stop the daily digest' }).click();
    await expect(
      page.getByText('You will not get the daily digest any more. You can turn it back on in Preferences.'),
    ).toBeVisible();
    await app.shots('unsubscribed', null);
    await page.getByRole('link', { name: 'Open Preferences' }).click();
    await expect(app.digest).toHaveValue('off');
  } finally {
    await context.close();
  }
});

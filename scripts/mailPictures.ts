/**
 * Pictures of the mails Outpost sends (issue 65): `npx tsx scripts/mailPictures.ts` runs the real
 * pipeline (an embedded database, the app, a real smtp-server), makes an assignment and a day with
 * work overdue and due, lets the outbox send, and renders each received mail's HTML in Chromium at
 * phone and desktop widths into .tmp/shots/mail-*.png (light: mail is read in the mail program's colours).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startMailServer, testEmailConfig, verifyAddress } from '../testkit/mailServer';
import { createTestApp } from '../testkit/server';
import { makeMutual, signedIn } from '../testkit/testClient';
import { chromiumArgs, chromiumPath } from './lib/chromium';
import { repoRoot } from './lib/paths';

const out = path.join(repoRoot, '.tmp/shots');
await mkdir(out, { recursive: true });
const mail = await startMailServer();
const harness = await createTestApp('pglite', {
  config: {
    reminderTickMs: 0,
    publicUrl: { origin: 'https://outpost.example.com', host: 'outpost.example.com' },
    email: testEmailConfig(mail, {
      inbound: {
        smtpPort: null,
        domain: 'in.outpost.example.com',
        httpToken: null,
        trustUnauthenticated: false,
        maxBytes: 1 << 20,
      },
    }),
  },
});
const { app } = harness;
try {
  const alex = await signedIn(app, 'Alex Morgan');
  const blair = await signedIn(app, 'Blair Chen');
  await makeMutual(alex, blair);
  await verifyAddress(blair, 'blair@example.com', mail);
  const campaign = await alex.create({ title: 'Spring garden', type: 'campaign' });
  await alex.post(`/api/campaigns/${campaign.id}/members`, { user_id: blair.user!.id, role: 'editor' });
  const bed = await alex.create({ title: 'Raised beds', type: 'task', parent_id: campaign.id });
  await alex.create({
    title: 'Order 200 tulip bulbs',
    type: 'todo',
    parent_id: bed.id,
    assigned_to: blair.user!.id,
  });
  const today = new Date().toISOString().slice(0, 10);
  const day = (n: number) =>
    new Date(Date.parse(`${today}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  await blair.create({ title: 'Send the quarterly report', type: 'task', due_date: day(-3), priority: 1 });
  await blair.create({
    title: 'Call the florist about the wedding',
    type: 'task',
    due_date: day(-1),
    priority: 2,
  });
  await blair.create({ title: 'Water the seedlings', type: 'todo', parent_id: bed.id, due_date: today });
  await blair.create({ title: 'Book the van', type: 'task', due_date: today, priority: 3 });
  await blair.patch('/api/me/email/preferences', { digest_hour: new Date().getUTCHours(), time_zone: 'UTC' });
  app.emailOutbox.poke(true);
  await app.emailOutbox.settled();
  await app.emailOutbox.runDigests(new Date());
  await app.emailOutbox.settled();
  const received = await mail.waitFor(3);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    for (const m of received.slice(1)) {
      const kind = String(m.parsed.headers.get('x-outpost-kind') ?? 'mail');
      for (const [size, viewport] of [
        ['phone', { width: 390, height: 844 }],
        ['desktop', { width: 1280, height: 800 }],
      ] as const) {
        const page = await browser.newPage({ viewport });
        await page.setContent(String(m.parsed.html));
        const file = path.join(out, `mail-${kind}-${size}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(`${m.parsed.subject} → ${file}`);
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  await harness.close();
  await mail.close();
}

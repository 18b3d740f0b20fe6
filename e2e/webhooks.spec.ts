import { expect, test } from '@playwright/test';
import { startWebhookReceiver } from '../testkit/webhookReceiver';
import { savePicture } from './lib/pictures';
import { Collab } from './pages/Collab';
import { freshPhone } from './pages/Outpost';

test('Preferences › Webhooks: add one, the secret shown once, Send test lands signed at a receiver, and the log says delivered', async ({
  page,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    const app = await Collab.signedIn(page, freshPhone(), 'Hook Owner');
    await app.goto('/preferences');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByRole('button', { name: 'Add webhook' }).click();
    await section.getByLabel('URL').fill(`${receiver.url}/outpost`);
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const secretField = section.getByLabel('Signing secret');
    await expect(secretField).toHaveValue(/^whsec_/);
    const secret = await secretField.inputValue();

    await section.getByRole('button', { name: 'Send test' }).click();
    const log = section.getByRole('list', { name: 'Deliveries' });
    await expect(log.getByText('delivered')).toBeVisible();
    await expect(log.getByText('webhook.test')).toBeVisible();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.verify(receiver.received[0]!, secret)).toMatchObject({ type: 'webhook.test' });

    // A change made in the app arrives too, and the open log shows it without a reload.
    await app.post('/api/items', { title: 'Seen by the hook', type: 'todo' });
    await expect(log.getByText('item.created')).toBeVisible();

    for (const [width, height, project] of [
      [1280, 800, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await section.scrollIntoViewIfNeeded();
        await savePicture(page, { path: `test-results/screenshots/webhooks/${project}-${scheme}.png` });
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await app.seriousA11yViolations()).toEqual([]);

    await section.getByRole('button', { name: 'Done' }).click();
    await expect(secretField).toHaveCount(0);
    await section.getByRole('switch').press('Space');
    await expect(section.getByText('Off', { exact: true })).toBeVisible();
    await section.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete webhook' }).click();
    await expect(section.getByRole('list', { name: 'Your webhooks' })).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

// @vitest-environment jsdom
/**
 * Preferences › Webhooks against the real server and the real data layer: a webhook's card says which
 * campaign it listens inside, and a delivery row names the item the change was on (issue 62).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, createSynced, type Device, settled, signIn } from '../../../testkit/client/harness';
import { renderWithApp } from '../../../testkit/client/renderWithApp';
import { freshPhone } from '../../../testkit/client/server';
import { openTestDatabase } from '../../../testkit/server';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testkit/webhookReceiver';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db/client';
import { loadConfig } from '../../server/env';
import { WebhooksSection } from './WebhooksSection';

// The client test server's set-up (testkit/client/server.ts), with webhooks let through to a receiver
// on this machine: nothing a test adds is sent beyond it.
let database: Database;
let app: FastifyInstance;
let dataDir: string;
let receiver: WebhookReceiver;
let url = '';
const devices: Device[] = [];

beforeAll(async () => {
  database = await openTestDatabase('pglite');
  dataDir = await mkdtemp(path.join(tmpdir(), 'outpost-webhooks-section-'));
  receiver = await startWebhookReceiver();
  app = await buildApp({
    database,
    config: {
      seedSampleUsers: true,
      loginsPerMinute: 0,
      writesPerMinute: 0,
      dataDir,
      webhooks: { ...loadConfig({}).webhooks, allowLoopback: true },
    },
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterEach(() => cleanup());

afterAll(async () => {
  await settled(...devices);
  for (const d of devices) d.client.close();
  await app?.close();
  await database?.close();
  await receiver?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function signedIn(name: string): Promise<Device> {
  const device = createDevice(url);
  devices.push(device);
  await signIn(device, freshPhone(), name);
  return device;
}

/** The card of the webhook sending to `endpoint`. */
async function cardOf(endpoint: string): Promise<HTMLElement> {
  const list = await screen.findByRole('list', { name: 'Your webhooks' });
  const card = within(list).getByText(endpoint).closest('li');
  if (!card) throw new Error(`no card for ${endpoint}`);
  return card;
}

describe('Preferences › Webhooks', () => {
  it('names the campaign a webhook listens inside, says all campaigns for one that listens everywhere, and a delivery row names its item', async () => {
    const owner = await signedIn('Hook Owner');
    const campaign = await createSynced(owner, { title: 'Spring fair', type: 'campaign' });
    const scoped = `${receiver.url}/fair`;
    const everywhere = `${receiver.url}/all`;
    const fairHook = await owner.client.send('webhooks.create', {
      url: scoped,
      events: ['*'],
      campaign_id: campaign.id,
    });
    await owner.client.send('webhooks.create', { url: everywhere, events: ['item.created'] });
    // A change inside the campaign: the scoped webhook hears of it, with the item it was on.
    await createSynced(owner, { title: 'Book the big hall', type: 'task', parent_id: campaign.id });
    await waitFor(
      async () => {
        const log = await owner.client.send('webhooks.deliveries', { id: fairHook.id, page: 1 });
        expect(log.data.map((d) => d.event_type)).toContain('item.created');
      },
      { timeout: 10_000 },
    );

    renderWithApp(<WebhooksSection />, { client: owner.client });
    const fairCard = await cardOf(scoped);
    expect(within(fairCard).getByText('All events · Campaign: Spring fair')).toBeTruthy();
    const allCard = await cardOf(everywhere);
    expect(within(allCard).getByText('item.created · All campaigns')).toBeTruthy();

    await act(async () => {
      fireEvent.click(within(fairCard).getByRole('button', { name: 'Deliveries' }));
    });
    const log = await within(fairCard).findByRole('list', { name: 'Deliveries' });
    const row = within(log).getByText('item.created').closest('li');
    expect(row).not.toBeNull();
    expect(within(row as HTMLElement).getByText('Book the big hall')).toBeTruthy();
  });
});

import { expect } from 'vitest';
import type { WebhookCreated, WebhookDelivery } from '../src/shared/webhooks';
import type { TestClient } from './testClient';

/** Adds a webhook for `client` (every event unless told, all campaigns unless one is named); 201 expected. */
export async function addHook(
  client: TestClient,
  url: string,
  events: string[] = ['*'],
  campaignId?: number,
): Promise<WebhookCreated> {
  const response = await client.post<WebhookCreated>('/api/webhooks', {
    url,
    events,
    ...(campaignId ? { campaign_id: campaignId } : {}),
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The first page of a webhook's delivery log, as its owner reads it. */
export async function hookDeliveries(client: TestClient, hookId: number): Promise<WebhookDelivery[]> {
  const response = await client.get<{ data: WebhookDelivery[] }>(`/api/webhooks/${hookId}/deliveries`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

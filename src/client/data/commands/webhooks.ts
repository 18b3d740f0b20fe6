/** Webhooks (Preferences › Webhooks): the server's routes, typed by the shared contract. */
import type { Paginated } from '../../../shared/item';
import type {
  Webhook,
  WebhookCreate,
  WebhookCreated,
  WebhookDelivery,
  WebhookPatch,
} from '../../../shared/webhooks';
import type { ApiClient } from '../net/apiClient';
import { defineCommands } from './map';

export const commands = defineCommands<{ api: ApiClient }>()({
  'webhooks.list': async (c) => (await c.api.get<{ webhooks: Webhook[] }>('/webhooks')).data.webhooks,
  /** Creates a webhook; the answer carries its secret, shown this once. */
  'webhooks.create': async (c, input: WebhookCreate) =>
    (await c.api.post<WebhookCreated>('/webhooks', input)).data,
  'webhooks.update': async (c, a: { id: number; patch: WebhookPatch }) =>
    (await c.api.patch<Webhook>(`/webhooks/${a.id}`, a.patch)).data,
  'webhooks.remove': async (c, id: number) => {
    await c.api.delete(`/webhooks/${id}`);
  },
  'webhooks.rotate': async (c, id: number) =>
    (await c.api.post<{ secret: string }>(`/webhooks/${id}/rotate`, {})).data.secret,
  'webhooks.test': async (c, id: number) =>
    (await c.api.post<WebhookDelivery>(`/webhooks/${id}/test`, {})).data,
  'webhooks.deliveries': async (c, a: { id: number; page: number }) =>
    (await c.api.get<Paginated<WebhookDelivery>>(`/webhooks/${a.id}/deliveries?page=${a.page}`)).data,
  'webhooks.retry': async (c, a: { id: number; deliveryId: number }) => {
    await c.api.post(`/webhooks/${a.id}/deliveries/${a.deliveryId}/retry`, {});
  },
});

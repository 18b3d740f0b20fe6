/** Email (Preferences › Email, the verify and unsubscribe pages, a campaign's secret address). */
import type { EmailKind, EmailPreferences, EmailState } from '../../../shared/email';
import type { ApiClient } from '../net/apiClient';
import { defineCommands } from './map';

/** A PATCH of the email preferences: any switches, the digest hour, the zone it is read in. */
export interface EmailPreferencesPatch {
  kinds?: Partial<Record<EmailKind, boolean>>;
  digest_hour?: number | null;
  time_zone?: string;
}

export const commands = defineCommands<{ api: ApiClient }>()({
  'email.state': async (c) => (await c.api.get<EmailState>('/me/email')).data,
  /** Sets (or changes) the address; the server mails a verification link (202). */
  'email.change': async (c, email: string) => {
    // The API client has no put helper: PUT is this route's verb alone.
    await c.api.request('PUT', '/api/me/email', { body: { email } });
  },
  'email.remove': async (c) => {
    await c.api.delete('/me/email');
  },
  'email.verify': async (c, token: string) =>
    (await c.api.post<{ email: string; verified: true }>('/me/email/verify', { token })).data,
  'email.preferences': async (c) => (await c.api.get<EmailPreferences>('/me/email/preferences')).data,
  'email.updatePreferences': async (c, patch: EmailPreferencesPatch) =>
    (await c.api.patch<EmailPreferences>('/me/email/preferences', patch)).data,
  'email.test': async (c) => (await c.api.post<{ sent: true }>('/email/test', {})).data,
  /** One press from a mail's link, signed in or not: the token names the person. */
  'email.unsubscribe': async (c, token: string) =>
    (await c.api.post<{ unsubscribed: string }>(`/email/unsubscribe?token=${encodeURIComponent(token)}`, {}))
      .data,
  'email.inboundAddress': async (c, campaignId: number) =>
    (await c.api.get<{ address: string }>(`/campaigns/${campaignId}/inbound_address`)).data.address,
  'email.rotateInboundAddress': async (c, campaignId: number) =>
    (await c.api.post<{ address: string }>(`/campaigns/${campaignId}/inbound_address/rotate`, {})).data
      .address,
});

/** The server-only reads (and the sign-in code request): typed, over the same origin and session. */
import type { AuthMethods } from '../../../shared/apiSchemas';
import type { DeviceSession } from '../../../shared/devices';
import type { ActivityEntry, Item, Mutual, Paginated, UserSummary } from '../../../shared/item';
import { PASSKEYS_UNSUPPORTED } from '../../../shared/passkeyFailure';
import type { Passkey } from '../../../shared/passkeys';
import type { ApiToken, ApiTokenCreated, ApiTokenList, TokenCreateInput } from '../../../shared/tokens';
import type { ApiClient } from '../net/apiClient';
import type { Handler } from './map';

export type AuthMode = 'demo' | 'otp';

/** Whether a calendar feed link is active and since when (F9); the server never answers its URL again. */
export interface CalendarLinkState {
  active: boolean;
  created_at: string | null;
}

/** A link just made: its URL, answered this once (F10). */
export interface MadeCalendarLink extends CalendarLinkState {
  url: string;
  created_at: string;
}

/**
 * The server reads need only an API client: the shell runs them before the data layer has loaded, so
 * this namespace is in the first screen's chunk (a plain object: no import of the map's code).
 */
type ServerContext = { api: ApiClient };
type Page = { page: number; signal?: AbortSignal };
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

type WebAuthn = typeof import('@simplewebauthn/browser');
type CreationOptions = Parameters<WebAuthn['startRegistration']>[0]['optionsJSON'];
type RequestOptions = Parameters<WebAuthn['startAuthentication']>[0]['optionsJSON'];

/**
 * The browser half of WebAuthn, loaded when a passkey is used (never with the first screen); a
 * browser without it fails here, before any request, with an error describePasskeyFailure words.
 */
async function loadWebAuthn(): Promise<WebAuthn> {
  const webauthn = await import('@simplewebauthn/browser');
  if (!webauthn.browserSupportsWebAuthn()) {
    const unsupported = new Error('This browser cannot use passkeys.');
    unsupported.name = PASSKEYS_UNSUPPORTED;
    throw unsupported;
  }
  return webauthn;
}

export const commands = {
  /** One page of the signed-in user's campaigns. */
  'server.campaignPage': async (c: ServerContext, a: Page) =>
    (await c.api.get<Paginated<Item>>(`/items?type=campaign&page=${a.page}`, withSignal(a.signal))).data,
  /** One page of a campaign's activity. */
  'server.activity': async (c: ServerContext, a: Page & { campaignId: number }) =>
    (
      await c.api.get<Paginated<ActivityEntry>>(
        `/campaigns/${a.campaignId}/activity?page=${a.page}`,
        withSignal(a.signal),
      )
    ).data,
  /** The signed-in user's mutual contacts. */
  'server.mutuals': async (c: ServerContext) =>
    (await c.api.get<{ mutuals: Mutual[] }>('/contacts/mutuals')).data.mutuals,
  /** The devices the signed-in user is signed in on, this one first. */
  'server.devices': async (c: ServerContext) =>
    (await c.api.get<{ sessions: DeviceSession[] }>('/sessions')).data.sessions,
  /** Signs one device out (its session ends; it notices on its next request). */
  'server.signOutDevice': async (c: ServerContext, id: string) => {
    await c.api.delete(`/sessions/${encodeURIComponent(id)}`);
  },
  /** Makes the signed-in user's secret calendar feed URL; the one made before stops working (F10). */
  'server.calendarUrl': async (c: ServerContext): Promise<MadeCalendarLink> =>
    (await c.api.post<MadeCalendarLink>('/calendar/token', {})).data,
  /** Whether a calendar feed link is active and since when (F9). */
  'server.calendarLinkState': async (c: ServerContext): Promise<CalendarLinkState> =>
    (await c.api.get<CalendarLinkState>('/calendar/token')).data,
  /** The signed-in user's personal access tokens (never their secrets). */
  'server.tokens': async (c: ServerContext): Promise<ApiToken[]> =>
    (await c.api.get<ApiTokenList>('/tokens')).data.tokens,
  /** Makes a personal access token; its secret is in this answer only. */
  'server.createToken': async (c: ServerContext, input: TokenCreateInput): Promise<ApiTokenCreated> =>
    (await c.api.post<ApiTokenCreated>('/tokens', input)).data,
  /** Revokes a personal access token: scripts using it get 401 from then on. */
  'server.revokeToken': async (c: ServerContext, id: number): Promise<void> => {
    await c.api.delete(`/tokens/${id}`);
  },
  /** The signed-in user's passkeys (name, added, last used). */
  'server.passkeys': async (c: ServerContext): Promise<Passkey[]> =>
    (await c.api.get<{ passkeys: Passkey[] }>('/passkeys')).data.passkeys,
  /** Adds a passkey: the server's creation options, the browser's prompt, then the server keeps it. */
  'server.addPasskey': async (c: ServerContext, name: string): Promise<Passkey> => {
    const webauthn = await loadWebAuthn();
    await c.api.csrfCookie();
    const { data: optionsJSON } = await c.api.post<CreationOptions>('/passkeys/register/options', {});
    const response = await webauthn.startRegistration({ optionsJSON });
    return (await c.api.post<Passkey>('/passkeys/register', { response, name })).data;
  },
  /** Renames a passkey (the name the person knows it by). */
  'server.renamePasskey': async (c: ServerContext, a: { id: number; name: string }): Promise<Passkey> =>
    (await c.api.patch<Passkey>(`/passkeys/${a.id}`, { name: a.name })).data,
  /** Removes a passkey: it no longer signs anyone in. */
  'server.removePasskey': async (c: ServerContext, id: number): Promise<void> => {
    await c.api.delete(`/passkeys/${id}`);
  },
  /**
   * Signs in with a passkey alone (discoverable credentials, no phone): the request options, the
   * browser's prompt, then the server's session. Only the auth store calls it (loginWithPasskey).
   */
  'server.passkeySignIn': async (c: ServerContext): Promise<UserSummary> => {
    const webauthn = await loadWebAuthn();
    await c.api.csrfCookie();
    const { data: optionsJSON } = await c.api.post<RequestOptions>('/passkeys/login/options', {});
    const response = await webauthn.startAuthentication({ optionsJSON });
    return (await c.api.post<{ user: UserSummary }>('/passkeys/login', { response })).data.user;
  },
  /** The ways to sign in besides the phone (GET /api/auth/methods): the single sign-on button's name. */
  'server.authMethods': async (c: ServerContext): Promise<AuthMethods> => {
    const { data } = await c.api.get<AuthMethods>('/auth/methods');
    return { oidc: data.oidc && typeof data.oidc.name === 'string' ? { name: data.oidc.name } : null };
  },
  /** Which sign-in flow the server wants. */
  'server.authMode': async (c: ServerContext): Promise<AuthMode> => {
    const { data } = await c.api.get<{ mode?: unknown }>('/auth/mode');
    return data.mode === 'otp' ? 'otp' : 'demo';
  },
  /** Asks the server to text a sign-in code; answers the mode it runs in. */
  'server.requestCode': async (c: ServerContext, phone: string): Promise<AuthMode> => {
    const { data } = await c.api.postWithCsrf<{ mode?: AuthMode }>('/login/code', { phone });
    return data.mode === 'otp' ? 'otp' : 'demo';
  },
  /** Texts a code to a phone the signed-in person adds (N15); answers the mode the server runs in. */
  'server.requestPhoneCode': async (c: ServerContext, phone: string): Promise<AuthMode> => {
    const { data } = await c.api.post<{ mode?: AuthMode }>('/me/phone/code', { phone });
    return data.mode === 'otp' ? 'otp' : 'demo';
  },
} satisfies Record<string, Handler>;

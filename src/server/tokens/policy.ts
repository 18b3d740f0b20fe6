import type { TokenAccess } from '../../shared/tokens';

/**
 * What a personal access token may do on each /api route (ARCHITECTURE §4), in one table so the whole
 * surface a leaked token exposes reads at a glance. A route may instead declare `config.tokenAccess`
 * itself (new resources do); a route found in neither is `never` (default deny), and a test walks
 * every registered route and fails on an /api route that declares nothing (policy.test.ts).
 *
 * `read` on reads of items, comments, activity and history; `write` on item, comment, label and time-entry writes
 * (labels are item fields); `never` on anything about the account or other people: tokens, members,
 * invites, sessions, sign-in and out, the profile, contacts, push subscriptions, the calendar link,
 * notification state, mutes, and the event stream (it lives as long as a session; scripts poll
 * /api/sync instead). HEAD follows GET.
 */
export const TOKEN_ROUTE_POLICY: Readonly<Record<string, TokenAccess>> = {
  'GET /api/health': 'read',
  'GET /api/auth/mode': 'read',
  'GET /api/auth/methods': 'read',
  // Single sign-on is the browser's: a token never starts or finishes one.
  'GET /api/auth/oidc/start': 'never',
  'GET /api/auth/oidc/callback': 'never',
  'POST /api/login/code': 'never',
  'POST /api/login': 'never',
  'GET /api/me': 'read',
  'PATCH /api/me': 'never',
  'POST /api/me/phone/code': 'never',
  'POST /api/me/phone': 'never',
  'POST /api/logout': 'never',

  'GET /api/items': 'read',
  'GET /api/labels': 'read',
  'GET /api/items/search': 'read',
  'GET /api/items/:id': 'read',
  'POST /api/items': 'write',
  'POST /api/items/batch': 'write',
  'PATCH /api/items/:id': 'write',
  'DELETE /api/items/:id': 'write',
  'POST /api/items/:id/assign': 'write',
  'POST /api/items/:id/restore': 'write',
  'GET /api/trash': 'read',
  'GET /api/export': 'read',
  'GET /api/campaigns/:id/activity': 'read',
  'GET /api/items/:id/history': 'read',
  'POST /api/items/:id/history/:entry/revert': 'write',

  'GET /api/items/:id/comments': 'read',
  'POST /api/items/:id/comments': 'write',
  'PATCH /api/comments/:id': 'write',
  'DELETE /api/comments/:id': 'write',

  'GET /api/items/:id/time_entries': 'read',
  'POST /api/items/:id/time_entries': 'write',
  'PATCH /api/time_entries/:id': 'write',
  'DELETE /api/time_entries/:id': 'write',
  'POST /api/time_entries/:id/stop': 'write',
  'GET /api/time_entries': 'read',
  'GET /api/time_entries.csv': 'read',
  // Who may be mentioned on or assigned an item: what an item's page shows, needed to assign by id.
  'GET /api/items/:id/people': 'read',
  'GET /api/items/:id/mute': 'never',
  'POST /api/items/:id/mute': 'never',
  'DELETE /api/items/:id/mute': 'never',

  'GET /api/campaigns/:id/members': 'never',
  'POST /api/campaigns/:id/members': 'never',
  'PATCH /api/campaigns/:id/members/:user_id': 'never',
  'DELETE /api/campaigns/:id/members/:user_id': 'never',
  'POST /api/campaigns/:id/invites': 'never',
  'GET /api/campaigns/:id/invites': 'never',
  'DELETE /api/invites/:token': 'never',
  'GET /api/invites/:token': 'never',
  'POST /api/invites/:token/accept': 'never',

  'POST /api/contacts/sync': 'never',
  'GET /api/contacts/mutuals': 'never',

  'GET /api/sync': 'read',
  'GET /api/events': 'never',

  'GET /api/calendar/token': 'never',
  'POST /api/calendar/token': 'never',

  'GET /api/notifications': 'read',
  'POST /api/notifications/read': 'never',
  'GET /api/push/key': 'never',
  'POST /api/push/subscriptions': 'never',
  'DELETE /api/push/subscriptions': 'never',

  'GET /api/tokens': 'never',
  'POST /api/tokens': 'never',
  'DELETE /api/tokens/:id': 'never',

  'GET /api/health/ready': 'read',
  // The API's own description: what a script needs to know how to call it.
  'GET /api/openapi.json': 'read',

  'GET /api/webhooks': 'webhooks',
  'POST /api/webhooks': 'webhooks',
  'PATCH /api/webhooks/:id': 'webhooks',
  'DELETE /api/webhooks/:id': 'webhooks',
  'POST /api/webhooks/:id/rotate': 'webhooks',
  'POST /api/webhooks/:id/test': 'webhooks',
  'GET /api/webhooks/:id/deliveries': 'webhooks',
  'POST /api/webhooks/:id/deliveries/:delivery_id/retry': 'webhooks',

  // Devices and passkeys are the account's keys: never within a token's reach.
  'GET /api/sessions': 'never',
  'DELETE /api/sessions/:id': 'never',
  'GET /api/passkeys': 'never',
  'DELETE /api/passkeys/:id': 'never',
  'PATCH /api/passkeys/:id': 'never',
  'POST /api/passkeys/register/options': 'never',
  'POST /api/passkeys/register': 'never',
  'POST /api/passkeys/login/options': 'never',
  'POST /api/passkeys/login': 'never',
};

/**
 * The access a route declares: its own `config.tokenAccess`, else the table's entry, else undefined
 * (which the request hook treats as `never`).
 */
export function declaredTokenAccess(
  method: string,
  url: string,
  config: { tokenAccess?: TokenAccess } | undefined,
): TokenAccess | undefined {
  if (config?.tokenAccess) return config.tokenAccess;
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  return Object.hasOwn(TOKEN_ROUTE_POLICY, key) ? TOKEN_ROUTE_POLICY[key] : undefined;
}

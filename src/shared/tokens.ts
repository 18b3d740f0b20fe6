/**
 * Personal access tokens (ARCHITECTURE §4): the contract between the server, the Preferences section
 * and anyone who scripts against the API. Pure: zod and nothing else.
 */
import { z } from 'zod';
import { text } from './schemas';

/**
 * What a token may be allowed to do. `caldav` is the password a calendar app signs in to /dav/ with
 * (ARCHITECTURE §4 'CalDAV'): it opens no /api route, and no other scope opens /dav/.
 */
export const TOKEN_SCOPES = ['read', 'write', 'webhooks', 'caldav'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * What a route allows a token to do, declared per route (server/tokens/policy.ts): the scope the
 * token needs, or `never` for what only a signed-in session in the app may reach (tokens, members,
 * invites, sessions, the account). A route that declares nothing is `never`.
 */
export const TOKEN_ACCESS = [...TOKEN_SCOPES, 'never'] as const;
export type TokenAccess = (typeof TOKEN_ACCESS)[number];

/** Every token starts with it, so a leaked one is easy to recognise (and for secret scanners). */
export const TOKEN_PREFIX = 'opk_';
/** `opk_` and 32 random bytes in base64url (43 characters, no padding). */
export const TOKEN_PATTERN = /^opk_[A-Za-z0-9_-]{43}$/;
export const TOKEN_NAME_MAX = 60;
export const TOKEN_DAYS = { min: 1, max: 365, default: 90 } as const;
/** The expiries Preferences offers, in days. */
export const TOKEN_EXPIRY_CHOICES = [7, 30, 90, 180, 365] as const;
/** Most live (neither revoked nor expired) tokens one person may hold. */
export const MAX_LIVE_TOKENS = 50;

/** The one 401 for a token that is unknown, revoked or expired: it says nothing about which. */
export const TOKEN_INVALID_MESSAGE = 'This access token is not valid: it is unknown, revoked or expired.';
/** The 403 on a route no token may reach. */
export const TOKEN_FORBIDDEN_MESSAGE =
  'Access tokens cannot do this: sign in to Outpost to manage tokens, members, invites, sessions and your account.';
export const TOO_MANY_TOKENS_MESSAGE = `You can have at most ${MAX_LIVE_TOKENS} active tokens. Revoke one before making another.`;

/** The 403 for a route that needs a scope the token lacks. */
export const lacksScopeMessage = (scope: TokenScope) => `This token lacks the '${scope}' scope`;

/**
 * Whether a token with `scopes` may use a route that declares `access`. Scopes are independent: a
 * GET needs `read`, a write `write`, a webhook route `webhooks`; `never` admits no token.
 */
export function tokenAllows(scopes: readonly string[], access: TokenAccess): boolean {
  return access !== 'never' && scopes.includes(access);
}

/**
 * The token an `Authorization` header carries: the text after `Bearer ` (any case), '' for a Bearer
 * header with nothing usable after it, or null when the header is absent or of another scheme.
 */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^\s*bearer(?:\s+(.*))?$/i.exec(header);
  if (!match) return null;
  return (match[1] ?? '').trim();
}

const nameField = text('The name', 'The name field is required.')
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .min(1, 'The name field is required.')
      .max(TOKEN_NAME_MAX, `The name may be at most ${TOKEN_NAME_MAX} characters.`)
      .refine(
        (value) => !/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u.test(value),
        'The name may hold no control characters.',
      ),
  );

const SCOPES_MESSAGE = `Choose at least one scope of ${TOKEN_SCOPES.join(', ')}.`;

/** POST /api/tokens. */
export const tokenCreateSchema = z.strictObject({
  name: nameField,
  scopes: z
    .array(z.enum(TOKEN_SCOPES, { error: `A scope is one of ${TOKEN_SCOPES.join(', ')}.` }), {
      error: SCOPES_MESSAGE,
    })
    .min(1, SCOPES_MESSAGE)
    .max(TOKEN_SCOPES.length * 4, SCOPES_MESSAGE)
    // Stored once each, in the list's own order, whatever order or repeats the request had.
    .transform((scopes) => TOKEN_SCOPES.filter((scope) => scopes.includes(scope))),
  expires_in_days: z
    .number({ error: 'The expiry must be a number of days.' })
    .int('The expiry must be a whole number of days.')
    .min(TOKEN_DAYS.min, `A token lasts ${TOKEN_DAYS.min} to ${TOKEN_DAYS.max} days.`)
    .max(TOKEN_DAYS.max, `A token lasts ${TOKEN_DAYS.min} to ${TOKEN_DAYS.max} days.`)
    .default(TOKEN_DAYS.default),
});
export type TokenCreateInput = z.input<typeof tokenCreateSchema>;
export type TokenCreate = z.output<typeof tokenCreateSchema>;

/** A token as GET /api/tokens lists it: never its secret. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** POST /api/tokens → 201: the token with its secret, in this answer only. */
export const apiTokenCreatedSchema = apiTokenSchema.extend({ token: z.string().regex(TOKEN_PATTERN) });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

/** GET /api/tokens. */
export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

/** Whether a token listed at `now` has expired (the list keeps expired tokens until revoked). */
export const tokenExpired = (token: Pick<ApiToken, 'expires_at'>, now: Date): boolean =>
  Date.parse(token.expires_at) <= now.getTime();

/**
 * Passkeys (ARCHITECTURE §4 'Other ways to sign in'): the request and answer shapes of
 * /api/passkeys. The WebAuthn responses themselves are checked by @simplewebauthn/server; here only
 * their outline, so nothing malformed reaches it.
 */
import { z } from 'zod';

/** How long a challenge may be answered, and the most passkeys one person keeps. */
export const PASSKEY_CHALLENGE_MS = 5 * 60_000;
export const PASSKEYS_PER_USER = 20;

import { PASSKEY_NAME_MAX } from './passkeyFailure';

export { PASSKEY_NAME_MAX, PASSKEY_SIGN_IN_FAILED } from './passkeyFailure';

const b64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

const credentialOutline = {
  id: b64url.min(1),
  rawId: b64url.min(1),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

export const registrationResponseSchema = z.object({
  ...credentialOutline,
  response: z.object({
    clientDataJSON: b64url.min(1),
    attestationObject: b64url.min(1),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});

export const authenticationResponseSchema = z.object({
  ...credentialOutline,
  response: z.object({
    clientDataJSON: b64url.min(1),
    authenticatorData: b64url.min(1),
    signature: b64url.min(1),
    userHandle: b64url.optional(),
  }),
});

export const passkeyRegisterSchema = z.strictObject({
  response: registrationResponseSchema,
  name: z
    .string({ error: 'The name must be text.' })
    .trim()
    .min(1, 'The name is required.')
    .max(PASSKEY_NAME_MAX, `The name may be at most ${PASSKEY_NAME_MAX} characters.`)
    .optional(),
});

/** PATCH /api/passkeys/{id}: a new name, trimmed, 1 to PASSKEY_NAME_MAX characters. */
export const passkeyRenameSchema = z.strictObject({
  name: z
    .string({ error: 'The name must be text.' })
    .trim()
    .min(1, 'The name is required.')
    .max(PASSKEY_NAME_MAX, `The name may be at most ${PASSKEY_NAME_MAX} characters.`),
});

export const passkeyLoginSchema = z.strictObject({ response: authenticationResponseSchema });

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** The challenge a WebAuthn response answers, read from its clientDataJSON; null when unreadable. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const text =
      typeof Buffer === 'undefined'
        ? atob(clientDataJSON.replace(/-/g, '+').replace(/_/g, '/'))
        : Buffer.from(clientDataJSON, 'base64url').toString('utf8');
    const parsed: unknown = JSON.parse(text);
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : null;
  } catch {
    return null;
  }
}

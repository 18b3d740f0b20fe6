/**
 * Single sign-on with OpenID Connect (ARCHITECTURE §4 'Other ways to sign in'): the rules the server
 * applies to a sign-in and the sentences the sign-in page shows for each way it can fail.
 */
import { NAME_MAX } from './profile';

/** Where the callback sends the browser when a sign-in fails: `/login?error=<code>`. */
export const OIDC_ERROR_PARAM = 'error';

/** Every way an OpenID Connect sign-in can fail, each with the one sentence the sign-in page shows. */
export const OIDC_FAILURES = {
  oidc_unavailable: 'The sign-in service could not be reached. Please try again in a moment.',
  oidc_expired: 'That sign-in took too long or was already used. Please start again.',
  oidc_denied: 'The sign-in was cancelled at the sign-in service.',
  oidc_rejected: 'The sign-in service’s answer could not be verified. Please start again.',
  oidc_domain:
    'Your email address is not one this Outpost accepts. Sign in with an address of your organisation.',
  oidc_failed: 'The sign-in did not complete. Please try again.',
  oidc_rate_limited: 'Too many sign-in attempts from this network. Please wait a minute and try again.',
} as const;
export type OidcFailure = keyof typeof OIDC_FAILURES;

/** The sentence for a `?error=` code, or null when the code is not one of ours. */
export function oidcFailureSentence(code: string | null | undefined): string | null {
  if (!code || !Object.hasOwn(OIDC_FAILURES, code)) return null;
  return OIDC_FAILURES[code as OidcFailure];
}

/** How long a started sign-in may take at the provider before its state is no longer accepted. */
export const OIDC_LOGIN_TTL_MS = 10 * 60 * 1000;

/** The longest `return_to` kept; a longer one is not a path the app makes. */
const RETURN_TO_MAX = 2048;

const hasControl = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * The path to land on after signing in: `raw` when it is a path on `origin` (our own), else `/`. An
 * absolute URL of another origin, a protocol-relative `//host`, backslash tricks and control
 * characters all fall back to `/`, so the sign-in can never be used to send someone elsewhere.
 */
export function safeReturnTo(raw: unknown, origin: string): string {
  if (typeof raw !== 'string' || raw === '' || raw.length > RETURN_TO_MAX) return '/';
  // Browsers read `\` as `/` and drop tabs and newlines: `/\evil.example` would leave the origin.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || hasControl(raw)) return '/';
  let resolved: URL;
  try {
    resolved = new URL(raw, origin);
  } catch {
    return '/';
  }
  if (resolved.origin !== new URL(origin).origin) return '/';
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/** `OIDC_ALLOWED_EMAIL_DOMAINS`: lower-case domains, without a leading `@`; empty allows any. */
export function parseEmailDomains(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter((d) => d !== '');
}

/**
 * Whether the claims' email may sign in under `domains` (empty: anyone). A listed domain needs an
 * email the provider has not marked unverified, whose domain is exactly one listed (no subdomains).
 */
export function emailDomainAllowed(
  claims: { email?: unknown; email_verified?: unknown },
  domains: readonly string[],
): boolean {
  if (domains.length === 0) return true;
  if (typeof claims.email !== 'string' || claims.email_verified === false) return false;
  const at = claims.email.lastIndexOf('@');
  if (at <= 0) return false;
  return domains.includes(claims.email.slice(at + 1).toLowerCase());
}

/** The display name from the claims: `name`, else `preferred_username`, else the email's local part. */
export function nameFromClaims(claims: {
  name?: unknown;
  preferred_username?: unknown;
  email?: unknown;
}): string | null {
  for (const candidate of [claims.name, claims.preferred_username]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim().slice(0, NAME_MAX);
  }
  if (typeof claims.email === 'string' && claims.email.indexOf('@') > 0) {
    return claims.email.slice(0, claims.email.indexOf('@')).slice(0, NAME_MAX);
  }
  return null;
}

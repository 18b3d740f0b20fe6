import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  authorizationCodeGrant,
  buildAuthorizationUrl,
  type Configuration,
  calculatePKCECodeChallenge,
  discovery,
  enableNonRepudiationChecks,
  fetchUserInfo,
  None,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
} from 'openid-client';
import { z } from 'zod';
import { authMethodsSchema } from '../../shared/apiSchemas';
import { emailAddressSchema } from '../../shared/email';
import {
  emailDomainAllowed,
  nameFromClaims,
  OIDC_ERROR_PARAM,
  OIDC_LOGIN_TTL_MS,
  type OidcFailure,
  safeReturnTo,
} from '../../shared/oidc';
import { PLACEHOLDER_NAME } from '../../shared/profile';
import { emailOf, setVerifiedEmail } from '../email/store';
import type { OidcConfig } from '../env';
import { addReadinessCheck } from '../health/checks';
import { HttpError, notFound } from '../http/errors';
import { enforce } from '../http/rateLimits';
import { endSession, startSession } from '../http/session';
import { checkedInHandler, noContent, routeDoc } from '../openapi/routeDoc';
import { findOrCreateOidcUser, rememberLogin, takeLogin } from './store';

/** The cookie that binds a sign-in under way to the browser that started it (no login CSRF). */
const BROWSER_COOKIE = 'outpost_oidc';
const COOKIE_PATH = '/api/auth/oidc';

const startQuerySchema = z.object({
  return_to: z
    .string()
    .optional()
    .describe('A path on this server to land on afterwards; anything else is /.'),
});
const callbackQuerySchema = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
});

const redirectAnswer = (description: string) => ({ description });

/** The profile claims Outpost reads, from the ID token or else the userinfo endpoint. */
interface ProfileClaims {
  sub: string;
  name?: unknown;
  preferred_username?: unknown;
  email?: unknown;
  email_verified?: unknown;
}

/**
 * The provider's configuration, discovered once and kept; a failed discovery is forgotten, so the
 * next sign-in asks again (a provider that was down comes back without a restart).
 */
function discoveredConfiguration(oidc: OidcConfig): () => Promise<Configuration> {
  let found: Promise<Configuration> | null = null;
  return () => {
    found ??= discovery(
      new URL(oidc.issuer),
      oidc.clientId,
      oidc.clientSecret,
      oidc.clientSecret ? undefined : None(),
      // The ID token's signature is checked against the provider's keys, not trusted on TLS alone.
      { execute: [enableNonRepudiationChecks], timeout: 10 },
    ).catch((error: unknown) => {
      found = null;
      throw error;
    });
    return found;
  };
}

/** Whether an If-None-Match header lists `tag` (weak comparison, RFC 9110 §13.1.2; `*` matches). */
function tagListed(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const bare = tag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === bare);
}

/**
 * Single sign-on with OpenID Connect (ARCHITECTURE §4 'Other ways to sign in'): the authorization
 * code flow with PKCE (S256), state and nonce, the ID token checked (signature, issuer, audience,
 * expiry, nonce), people found by (issuer, sub). Every failure lands on the sign-in page with a code
 * for its sentence; nothing is created before every check has passed.
 */
export async function oidcRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const oidc = app.config.oidc;
  const { origin } = app.config.publicUrl;
  const configuration = oidc ? discoveredConfiguration(oidc) : null;
  const TAGS = ['Auth'];
  if (oidc && configuration) {
    // A provider that cannot be discovered means nobody signs in with it: readiness says so by name.
    addReadinessCheck(app, {
      setting: 'OIDC_ISSUER',
      cacheMs: 30_000,
      run: () =>
        configuration().then(
          () => {},
          (error: unknown) => {
            throw new Error(
              `the OpenID provider at ${oidc.issuer} cannot be discovered (${(error as Error).message}).`,
            );
          },
        ),
    });
  }

  const methods = { oidc: oidc ? { name: oidc.name } : null };
  // Weak: the same answer compressed or not is the same to the page.
  const methodsTag = `W/"${createHash('sha256').update(JSON.stringify(methods)).digest('base64url').slice(0, 22)}"`;
  app.get(
    '/auth/methods',
    {
      config: { public: true },
      schema: routeDoc({
        summary: 'Ways to sign in',
        description:
          'Besides the phone: `oidc` names the single sign-on button (`Sign in with {name}`), or is null when it is not configured.',
        tags: TAGS,
        answers: {
          200: { description: 'The ways, with an `ETag`.', schema: authMethodsSchema },
          304: noContent('Unchanged since the copy whose `ETag` came in `If-None-Match`.'),
        },
      }),
    },
    async (request, reply) => {
      // Asked again on every sign-in page (no-cache), answered 304 while unchanged: a browser that
      // kept it for minutes showed no single sign-on button after the server had turned it on.
      reply.header('Cache-Control', 'no-cache');
      reply.header('ETag', methodsTag);
      if (tagListed(request.headers['if-none-match'], methodsTag)) return reply.status(304).send();
      return methods;
    },
  );

  const secure = (request: FastifyRequest) => request.protocol === 'https';
  const failed = (request: FastifyRequest, reply: FastifyReply, code: OidcFailure) => {
    reply.clearCookie(BROWSER_COOKIE, { path: COOKIE_PATH, secure: secure(request) });
    return reply.redirect(`/login?${OIDC_ERROR_PARAM}=${code}`, 302);
  };

  /**
   * The sign-in attempts' limit on a route a browser is sent to: over it, the sign-in page with its
   * sentence (and Retry-After) rather than a JSON 429 the person would see as raw text. True when
   * the answer is sent.
   */
  const overLimit = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    try {
      await enforce(app.limits.login, request, 'sign-in attempts');
      return false;
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 429) throw error;
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      await failed(request, reply, 'oidc_rate_limited');
      return true;
    }
  };

  app.get(
    '/auth/oidc/start',
    {
      config: { public: true },
      schema: routeDoc({
        summary: 'Start single sign-on',
        description:
          'Redirects to the OpenID provider (authorization code with PKCE S256, `state`, `nonce`); when the provider cannot be reached, to `/login?error=oidc_unavailable`; over the sign-in attempts’ limit, to `/login?error=oidc_rate_limited` with `Retry-After`. 404 when single sign-on is not configured.',
        tags: TAGS,
        querystring: checkedInHandler(startQuerySchema),
        answers: {
          302: redirectAnswer('To the provider, or to the sign-in page with an error code.'),
          404: { description: 'Single sign-on is not configured.' },
        },
      }),
    },
    async (request, reply) => {
      if (!oidc || !configuration) throw notFound('Route');
      if (await overLimit(request, reply)) return reply;
      const returnTo = safeReturnTo(
        (request.query as Record<string, unknown> | undefined)?.return_to,
        origin,
      );
      let config: Configuration;
      try {
        config = await configuration();
      } catch (error) {
        request.log.warn({ err: error }, 'the OpenID provider could not be discovered');
        return failed(request, reply, 'oidc_unavailable');
      }
      const verifier = randomPKCECodeVerifier();
      const state = randomState();
      const nonce = randomNonce();
      const browser = randomBytes(32).toString('base64url');
      await rememberLogin(db, { state, browser, verifier, nonce, returnTo });
      reply.setCookie(BROWSER_COOKIE, browser, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(request),
        maxAge: OIDC_LOGIN_TTL_MS / 1000,
      });
      const target = buildAuthorizationUrl(config, {
        redirect_uri: oidc.redirectUri,
        scope: oidc.scopes,
        code_challenge: await calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return reply.redirect(target.href, 302);
    },
  );

  app.get(
    '/auth/oidc/callback',
    {
      config: { public: true },
      schema: routeDoc({
        summary: 'Finish single sign-on',
        description:
          'Where the provider sends the browser back. Checks state (single use, 10 minutes, this browser’s), exchanges the code with its PKCE verifier, checks the ID token (signature, issuer, audience, expiry, nonce) and the allowed email domains, finds or creates the person by (issuer, sub), starts a session and redirects to `return_to`. Every failure redirects to `/login?error=<code>` and creates nothing (over the sign-in attempts’ limit: `oidc_rate_limited`, with `Retry-After`).',
        tags: TAGS,
        querystring: checkedInHandler(callbackQuerySchema),
        answers: {
          302: redirectAnswer('Signed in, to `return_to`; or to the sign-in page with an error code.'),
          404: { description: 'Single sign-on is not configured.' },
        },
      }),
    },
    async (request, reply) => {
      if (!oidc || !configuration) throw notFound('Route');
      if (await overLimit(request, reply)) return reply;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const state = typeof query.state === 'string' ? query.state : null;
      const browser = request.cookies[BROWSER_COOKIE];
      // The state goes first, whatever follows: an answer from the provider is taken once.
      const login = state && browser ? await takeLogin(db, state, browser) : undefined;
      if (!login) return failed(request, reply, 'oidc_expired');
      if (query.error !== undefined) return failed(request, reply, 'oidc_denied');

      let config: Configuration;
      try {
        config = await configuration();
      } catch (error) {
        request.log.warn({ err: error }, 'the OpenID provider could not be discovered');
        return failed(request, reply, 'oidc_unavailable');
      }
      let profile: ProfileClaims;
      let issuer: string;
      try {
        const tokens = await authorizationCodeGrant(config, new URL(request.url, origin), {
          pkceCodeVerifier: login.code_verifier,
          expectedState: login.state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) return failed(request, reply, 'oidc_rejected');
        issuer = claims.iss;
        profile = { ...claims };
        // Providers that keep the profile out of the ID token give it at the userinfo endpoint.
        const wanted =
          nameFromClaims(profile) === null || (oidc.allowedEmailDomains.length > 0 && !profile.email);
        if (wanted && config.serverMetadata().userinfo_endpoint) {
          const info = await fetchUserInfo(config, tokens.access_token, claims.sub);
          profile = { ...info, ...stripUndefined(profile), sub: claims.sub };
        }
      } catch (error) {
        request.log.info({ err: error }, 'single sign-on refused');
        return failed(request, reply, 'oidc_rejected');
      }
      if (!emailDomainAllowed(profile, oidc.allowedEmailDomains))
        return failed(request, reply, 'oidc_domain');

      const email = typeof profile.email === 'string' ? profile.email.slice(0, 320) : null;
      const user = await findOrCreateOidcUser(
        db,
        issuer,
        profile.sub,
        nameFromClaims(profile) ?? PLACEHOLDER_NAME,
        email,
      );
      // The provider's verified email counts as verified here (ARCHITECTURE §4 'Email'), unless the
      // person already has a verified address of their own or another person has this one.
      if (email && profile.email_verified === true && emailAddressSchema.safeParse(email).success) {
        const current = await emailOf(db, user.id);
        if (!current?.verified) await setVerifiedEmail(db, user.id, email);
      }
      if (request.session) {
        await endSession(db, request, reply, request.session.id, app.sessionCache, { retire: true });
      }
      await startSession(db, request, reply, user.id, 'oidc');
      reply.clearCookie(BROWSER_COOKIE, { path: COOKIE_PATH, secure: secure(request) });
      return reply.redirect(safeReturnTo(login.return_to, origin), 302);
    },
  );
}

const stripUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  challengeOf,
  PASSKEY_SIGN_IN_FAILED,
  PASSKEYS_PER_USER,
  passkeyLoginSchema,
  passkeyRegisterSchema,
  passkeyRenameSchema,
  passkeySchema,
} from '../../shared/passkeys';
import { userJson } from '../auth/users';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow, unprocessable } from '../http/errors';
import { enforce } from '../http/rateLimits';
import { endSession, startSession } from '../http/session';
import {
  checkedInHandler,
  errorAnswer,
  idParams,
  invalidAnswer,
  noContent,
  routeDoc,
} from '../openapi/routeDoc';
import {
  advanceCounter,
  deletePasskey,
  insertPasskey,
  listPasskeys,
  passkeyByCredential,
  passkeyCredentials,
  passkeyJson,
  passkeyUser,
  rememberChallenge,
  renamePasskey,
  takeChallenge,
} from './store';

/**
 * Passkeys: adding, naming, listing and removing them signed in, and signing in with one alone
 * (discoverable credentials, user verification required). The relying party is PUBLIC_URL's host and
 * only its origin is accepted.
 */
export async function passkeyRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const { origin, host: rpID } = app.config.publicUrl;

  app.post(
    '/passkeys/register/options',
    {
      schema: routeDoc({
        summary: 'Options to add a passkey',
        description:
          'Creation options for navigator.credentials.create (discoverable, user verification required); the challenge may be answered once within 5 minutes.',
        tags: ['Passkeys'],
        answers: {
          200: {
            description: 'Creation options.',
            schema: z
              .record(z.string(), z.unknown())
              .describe('WebAuthn options for the browser (PublicKeyCredential…OptionsJSON).'),
          },
          422: errorAnswer('Too many passkeys.'),
        },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const existing = await passkeyCredentials(db, user);
      if (existing.length >= PASSKEYS_PER_USER) {
        throw new HttpError(422, `You can keep at most ${PASSKEYS_PER_USER} passkeys. Remove one first.`);
      }
      const { generateRegistrationOptions } = await webAuthn();
      const options = await generateRegistrationOptions({
        rpName: 'Outpost',
        rpID,
        userName: user.phone || user.name,
        userDisplayName: user.name,
        userID: new TextEncoder().encode(`outpost-user-${user.id}`),
        attestationType: 'none',
        excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: c.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await rememberChallenge(db, options.challenge, 'register', user.id);
      return options;
    },
  );

  app.post(
    '/passkeys/register',
    {
      schema: routeDoc({
        summary: 'Add a passkey',
        description: 'The browser’s registration response to the options above, and an optional name.',
        tags: ['Passkeys'],
        body: checkedInHandler(passkeyRegisterSchema),
        answers: { 201: { description: 'The passkey.', schema: passkeySchema }, 422: invalidAnswer() },
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const input = parseOrThrow(passkeyRegisterSchema, request.body);
      const challenge = challengeOf(input.response.response.clientDataJSON);
      const refused = () =>
        unprocessable({ response: ['The passkey could not be added. Start again from Preferences.'] });
      if (!(await takeChallenge(db, challenge, 'register', user.id))) throw refused();
      const { verifyRegistrationResponse } = await webAuthn();
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          response: input.response as RegistrationResponseJSON,
          expectedChallenge: challenge!,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch (error) {
        request.log.info({ err: error }, 'passkey registration refused');
        throw refused();
      }
      if (!verified.verified) throw refused();
      const { credential } = verified.registrationInfo;
      const name = input.name ?? `Passkey added ${new Date().toISOString().slice(0, 10)}`;
      // Hints for later sign-ins ('internal', 'usb', 'hybrid', …): only plain words are kept.
      const transports = (credential.transports ?? []).filter((t) => /^[a-z-]{1,32}$/.test(t));
      const row = await insertPasskey(db, user, credential, transports, name);
      if (!row) throw unprocessable({ response: ['This passkey is already added, or you have too many.'] });
      return reply.status(201).send(passkeyJson(row));
    },
  );

  app.get(
    '/passkeys',
    {
      schema: routeDoc({
        summary: 'List passkeys',
        description: 'The person’s passkeys.',
        tags: ['Passkeys'],
        answers: {
          200: { description: 'The passkeys.', schema: z.object({ passkeys: z.array(passkeySchema) }) },
        },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const found = await listPasskeys(db, user);
      return { passkeys: found.map(passkeyJson) };
    },
  );

  /** The passkey id in the path, or a 404 for one nobody has (an id past PostgreSQL's integer range too). */
  const passkeyId = (raw: string): number => {
    const id = Number(raw);
    if (!/^\d{1,10}$/.test(raw) || id <= 0 || id > 2_147_483_647) throw notFound('Passkey');
    return id;
  };

  app.patch<{ Params: { id: string } }>(
    '/passkeys/:id',
    {
      schema: routeDoc({
        summary: 'Rename a passkey',
        description: 'The name the person knows it by in Preferences; it changes nothing about signing in.',
        tags: ['Passkeys'],
        params: idParams('The passkey’s id.'),
        body: checkedInHandler(passkeyRenameSchema),
        answers: {
          200: { description: 'The passkey, renamed.', schema: passkeySchema },
          404: errorAnswer('No such passkey of yours.'),
          422: invalidAnswer('A missing, empty or too long name, or another key.'),
        },
      }),
    },
    async (request) => {
      const user = currentUser(request);
      const id = passkeyId(request.params.id);
      const { name } = parseOrThrow(passkeyRenameSchema, request.body);
      const renamed = await renamePasskey(db, user, id, name);
      if (!renamed) throw notFound('Passkey');
      return passkeyJson(renamed);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/passkeys/:id',
    {
      schema: routeDoc({
        summary: 'Remove a passkey',
        description: 'It can no longer sign in.',
        tags: ['Passkeys'],
        params: idParams('The passkey’s id.'),
        answers: { 204: noContent('Removed.'), 404: errorAnswer('No such passkey of yours.') },
      }),
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = passkeyId(request.params.id);
      if (!(await deletePasskey(db, user, id))) throw notFound('Passkey');
      return reply.status(204).send();
    },
  );

  app.post(
    '/passkeys/login/options',
    {
      config: { public: true },
      ...{
        schema: routeDoc({
          summary: 'Options to sign in with a passkey',
          description: 'Request options naming no user (discoverable credentials); single use, 5 minutes.',
          tags: ['Passkeys'],
          answers: {
            200: {
              description: 'Request options.',
              schema: z
                .record(z.string(), z.unknown())
                .describe('WebAuthn options for the browser (PublicKeyCredential…OptionsJSON).'),
            },
          },
        }),
      },
    },
    async (request) => {
      await enforce(app.limits.login, request, 'sign-in attempts');
      const { generateAuthenticationOptions } = await webAuthn();
      const options = await generateAuthenticationOptions({
        rpID,
        userVerification: 'required',
        allowCredentials: [],
      });
      await rememberChallenge(db, options.challenge, 'login', null);
      return options;
    },
  );

  app.post(
    '/passkeys/login',
    {
      config: { public: true },
      ...{
        schema: routeDoc({
          summary: 'Sign in with a passkey',
          description: 'Starts a session as /api/login does. Every failure is the same 401.',
          tags: ['Passkeys'],
          body: checkedInHandler(passkeyLoginSchema),
          answers: {
            200: {
              description: 'Signed in.',
              schema: z.object({ user: z.object({ id: z.number(), name: z.string() }).loose() }),
            },
            401: errorAnswer('The passkey did not sign in.'),
            422: invalidAnswer(),
          },
        }),
      },
    },
    async (request, reply) => {
      await enforce(app.limits.login, request, 'sign-in attempts');
      const input = parseOrThrow(passkeyLoginSchema, request.body);
      const failed = () => new HttpError(401, PASSKEY_SIGN_IN_FAILED);
      const challenge = challengeOf(input.response.response.clientDataJSON);
      // The challenge goes first, whatever follows: a response can be tried once.
      if (!(await takeChallenge(db, challenge, 'login', null))) throw failed();
      const passkey = await passkeyByCredential(db, input);
      if (!passkey) throw failed();
      const { verifyAuthenticationResponse } = await webAuthn();
      let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
      try {
        result = await verifyAuthenticationResponse({
          response: input.response as AuthenticationResponseJSON,
          expectedChallenge: challenge!,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
          credential: {
            id: passkey.credential_id,
            publicKey: new Uint8Array(passkey.public_key),
            counter: Number(passkey.counter),
            transports: passkey.transports as AuthenticatorTransportFuture[],
          },
        });
      } catch (error) {
        request.log.info({ err: error }, 'passkey sign-in refused');
        throw failed();
      }
      if (!result.verified) throw failed();
      const { newCounter } = result.authenticationInfo;
      // The counter moves forward or both stay 0 (authenticators that keep none); a step back is a clone.
      if (!(await advanceCounter(db, passkey, newCounter))) throw failed();
      const user = await passkeyUser(db, passkey);
      if (!user) throw failed();
      if (request.session) {
        await endSession(db, request, reply, request.session.id, app.sessionCache, { retire: true });
      }
      await startSession(db, request, reply, user.id, 'passkey');
      return { user: userJson(user) };
    },
  );
}

/**
 * The WebAuthn library, loaded with the first passkey ceremony: 11 MB an idle server (and every account
 * that never uses a passkey) need not hold (issue 68).
 */
function webAuthn(): Promise<typeof import('@simplewebauthn/server')> {
  return import('@simplewebauthn/server');
}

type AuthenticatorTransportFuture = NonNullable<
  Parameters<typeof verifyAuthenticationResponse>[0]['credential']['transports']
>[number];

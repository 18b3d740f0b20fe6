import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  emailChangeSchema,
  emailPreferencesPatchSchema,
  emailPreferencesSchema,
  emailStateSchema,
  emailVerifySchema,
  normalizeEmail,
} from '../../shared/email';
import { addReadinessCheck } from '../health/checks';
import { currentUser } from '../http/context';
import { HttpError, unprocessable } from '../http/errors';
import { errorAnswer, invalidAnswer, noContent, routeDoc } from '../openapi/routeDoc';
import { Mailer } from './mailer';
import { EmailOutbox } from './outbox';
import { renderTestMail, renderVerificationMail } from './render';
import { loadReplyKey } from './replyAddress';
import {
  emailOf,
  enqueueMail,
  patchPreferences,
  preferencesOf,
  recentMails,
  removeEmail,
  setPendingEmail,
  stopDigest,
  useVerification,
  verifiedByOther,
} from './store';
import { readUnsubscribeToken } from './unsubscribeToken';

/** Verification and test mails one person may ask for in an hour: enough to fix a typo, too few to spam with. */
const MAILS_PER_HOUR = 5;

const TAGS = ['Email'];

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether a database error is a unique violation (two people verifying one address at once). */
function isUniqueViolation(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

const TAKEN = 'Another account already uses this email address.';

/**
 * Email (ARCHITECTURE §4 'Email'): a person's address and its verification, their switches and
 * digest hour, the test mail, one-click unsubscribe, and the outbox that sends it all.
 */
export async function registerEmail(
  app: FastifyInstance,
): Promise<{ outbox: EmailOutbox; stop(): Promise<void> }> {
  const db = app.database.db;
  const config = app.config.email;
  const origin = app.config.publicUrl.origin;
  let key: Promise<Buffer> | null = null;
  const replyKey = () => {
    key ??= loadReplyKey(db).catch((error) => {
      key = null;
      throw error;
    });
    return key;
  };
  const mailer = config.smtpUrl ? new Mailer({ ...config, smtpUrl: config.smtpUrl }) : null;
  // Mail that cannot go out is a feature silently off: readiness names SMTP_URL (one connection a minute).
  if (mailer) addReadinessCheck(app, { setting: 'SMTP_URL', cacheMs: 60_000, run: () => mailer.verify() });
  const outbox = new EmailOutbox(
    db,
    {
      config,
      origin,
      replyKey,
      mailer,
      clock: app.clock,
      onFailure: (kind) => app.metrics.emailFailures.inc({ kind }),
    },
    app.log,
  );
  app.changes.onChange(() => outbox.pokeSoon());
  app.addHook('onReady', async () => {
    outbox.start();
    outbox.poke(true);
  });

  const off = () => new HttpError(404, 'This server does not send email.');

  await app.register(
    async (plain) => {
      const api = plain.withTypeProvider<ZodTypeProvider>();

      api.get(
        '/me/email',
        {
          config: { tokenAccess: 'never' },
          schema: routeDoc({
            summary: 'Your email address',
            description: 'The address, whether it is verified, and whether this server sends mail at all.',
            tags: TAGS,
            answers: { 200: { description: 'The address and its state.', schema: emailStateSchema } },
          }),
        },
        async (request) => {
          const user = currentUser(request);
          const row = await emailOf(db, user.id);
          return { email: row?.email ?? null, verified: row?.verified ?? false, sending: mailer !== null };
        },
      );

      api.put(
        '/me/email',
        {
          config: { tokenAccess: 'never' },
          schema: routeDoc({
            summary: 'Set your email address',
            description:
              'Sets a new address and mails it a link to `/verify-email?token=…` (valid 24 hours); nothing else is mailed there until the link is opened. The same verified address again changes nothing.',
            tags: TAGS,
            body: emailChangeSchema,
            answers: {
              202: { description: 'The address waits for its link.', schema: emailStateSchema },
              200: { description: 'The address was already yours and verified.', schema: emailStateSchema },
              404: errorAnswer('This server does not send email.'),
              409: errorAnswer(TAKEN),
              422: invalidAnswer(),
              429: errorAnswer('Too many verification mails in an hour.'),
            },
          }),
        },
        async (request, reply) => {
          const user = currentUser(request);
          if (!mailer) throw off();
          const email = normalizeEmail(request.body.email);
          const current = await emailOf(db, user.id);
          if (current?.verified && current.email === email)
            return reply.status(200).send({ email, verified: true, sending: true });
          if (await verifiedByOther(db, user.id, email)) throw new HttpError(409, TAKEN);
          if ((await recentMails(db, user.id, 'verify')) >= MAILS_PER_HOUR)
            throw new HttpError(429, 'Too many verification mails in an hour. Try again later.');
          const token = randomBytes(32).toString('base64url');
          const rendered = renderVerificationMail({ email, url: `${origin}/verify-email?token=${token}` });
          await db.transaction(async (tx) => {
            await setPendingEmail(tx, user.id, email, hashToken(token));
            await enqueueMail(tx, [
              {
                userId: user.id,
                kind: 'verify',
                dedupeKey: null,
                to: email,
                ...rendered,
                headers: { 'Auto-Submitted': 'auto-generated' },
              },
            ]);
          });
          outbox.poke(true);
          return reply.status(202).send({ email, verified: false, sending: true });
        },
      );

      api.delete(
        '/me/email',
        {
          config: { tokenAccess: 'never' },
          schema: routeDoc({
            summary: 'Remove your email address',
            description: 'No more mail of any kind; pending verification links stop working.',
            tags: TAGS,
            answers: { 204: noContent('Removed (also when there was none).') },
          }),
        },
        async (request, reply) => {
          await removeEmail(db, currentUser(request).id);
          return reply.status(204).send();
        },
      );

      api.post(
        '/me/email/verify',
        {
          config: { tokenAccess: 'never' },
          schema: routeDoc({
            summary: 'Verify your email address',
            description: 'The token from the verification mail’s link. A link works once, for 24 hours.',
            tags: TAGS,
            body: emailVerifySchema,
            answers: {
              200: { description: 'Verified.', schema: emailStateSchema },
              409: errorAnswer(TAKEN),
              422: invalidAnswer('That link has expired or was already used.'),
            },
          }),
        },
        async (request) => {
          const user = currentUser(request);
          const tokenHash = hashToken(request.body.token);
          let used: { userId: number; email: string } | null;
          try {
            used = await db.transaction(async (tx) => {
              const found = await useVerification(tx, tokenHash);
              // Someone else's link opened in this session verifies nothing, and says no more than a bad one.
              if (found && found.userId !== user.id)
                throw unprocessable({ token: ['That link has expired or was already used.'] });
              if (found && (await verifiedByOther(tx, user.id, found.email))) throw new HttpError(409, TAKEN);
              return found;
            });
          } catch (error) {
            if (isUniqueViolation(error)) throw new HttpError(409, TAKEN);
            throw error;
          }
          if (!used) throw unprocessable({ token: ['That link has expired or was already used.'] });
          return { email: used.email, verified: true, sending: mailer !== null };
        },
      );

      api.get(
        '/me/email/preferences',
        {
          config: { tokenAccess: 'never' },
          schema: routeDoc({
            summary: 'Your email switches',
            description:
              'One switch per kind of notification, the digest hour (null: no digest) and the zone it is read in.',
            tags: TAGS,
            answers: { 200: { description: 'Your switches.', schema: emailPreferencesSchema } },
          }),
        },
        async (request) => preferencesOf(db, currentUser(request).id),
      );

      api.patch(
        '/me/email/preferences',
        {
          config: { tokenAccess: 'never' },
          schema: routeDoc({
            summary: 'Change your email switches',
            description: 'Any of the switches, the digest hour (0–23, or null for none) and the IANA zone.',
            tags: TAGS,
            body: emailPreferencesPatchSchema,
            answers: {
              200: { description: 'Your switches now.', schema: emailPreferencesSchema },
              422: invalidAnswer(),
            },
          }),
        },
        async (request) => {
          const user = currentUser(request);
          await patchPreferences(db, user.id, request.body);
          return preferencesOf(db, user.id);
        },
      );

      api.post(
        '/email/test',
        {
          config: { tokenAccess: 'never' },
          schema: routeDoc({
            summary: 'Send yourself a test email',
            description:
              'Sends a test mail to your verified address now and answers what the SMTP server said: on failure its own words (such as `535 Authentication credentials invalid`).',
            tags: TAGS,
            answers: {
              200: { description: 'The SMTP server took it.', schema: z.object({ sent: z.literal(true) }) },
              404: errorAnswer('This server does not send email.'),
              409: errorAnswer('Add and verify an email address first.'),
              429: errorAnswer('Too many test mails in an hour.'),
              502: errorAnswer('The SMTP server refused the mail; the message is its answer.'),
            },
          }),
        },
        async (request) => {
          const user = currentUser(request);
          if (!mailer) throw off();
          const address = await emailOf(db, user.id);
          if (!address?.verified) throw new HttpError(409, 'Add and verify an email address first.');
          if ((await recentMails(db, user.id, 'test')) >= MAILS_PER_HOUR)
            throw new HttpError(429, 'Too many test mails in an hour. Try again later.');
          const rendered = renderTestMail({ preferencesUrl: `${origin}/preferences#email` });
          const outcome = await outbox.sendNew({
            userId: user.id,
            kind: 'test',
            dedupeKey: null,
            to: address.email,
            ...rendered,
            headers: {},
          });
          if (!outcome.ok) throw new HttpError(502, outcome.error);
          return { sent: true as const };
        },
      );

      // Mail programs' one-click unsubscribe POSTs `List-Unsubscribe=One-Click` as a form (RFC 8058):
      // read here only, and ignored (the token in the URL says everything).
      await api.register(async (plainScoped) => {
        plainScoped.addContentTypeParser(
          'application/x-www-form-urlencoded',
          { parseAs: 'string', bodyLimit: 1024 },
          (_request, _body, done) => done(null, undefined),
        );
        const scoped = plainScoped.withTypeProvider<ZodTypeProvider>();
        const unsubscribeQuery = z.object({ token: z.string().max(64) });
        scoped.get(
          '/email/unsubscribe',
          {
            config: { selfAuthenticated: true, tokenAccess: 'never' },
            schema: routeDoc({
              summary: 'Open an unsubscribe link',
              description:
                'A digest’s unsubscribe link opened in a browser: redirects to the app’s page that asks before stopping (a GET never unsubscribes: link checkers follow links).',
              tags: TAGS,
              querystring: unsubscribeQuery,
              answers: { 303: noContent('To /unsubscribe?token=…') },
            }),
          },
          async (request, reply) =>
            reply.redirect(`/unsubscribe?token=${encodeURIComponent(request.query.token)}`, 303),
        );

        scoped.post(
          '/email/unsubscribe',
          {
            config: { selfAuthenticated: true, tokenAccess: 'never' },
            schema: routeDoc({
              summary: 'Stop the daily digest',
              description:
                'One-click unsubscribe (RFC 8058): the token in the digest’s `List-Unsubscribe` link is the credential, no sign-in. Turns the digest off; notification switches stay as they are.',
              tags: TAGS,
              querystring: unsubscribeQuery,
              answers: {
                200: {
                  description: 'The digest is off.',
                  schema: z.object({ unsubscribed: z.literal('digest') }),
                },
                422: invalidAnswer('That unsubscribe link is not valid.'),
              },
            }),
          },
          async (request) => {
            const userId = readUnsubscribeToken(await replyKey(), request.query.token);
            if (userId === null) throw unprocessable({ token: ['That unsubscribe link is not valid.'] });
            await stopDigest(db, userId);
            return { unsubscribed: 'digest' as const };
          },
        );
      });
    },
    { prefix: '/api' },
  );

  return { outbox, stop: () => outbox.stop() };
}

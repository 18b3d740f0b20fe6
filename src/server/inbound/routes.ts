import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { inboundAddressSchema } from '../../shared/email';
import { VIEWER_READ_ONLY_MESSAGE } from '../../shared/membership';
import { bearerToken } from '../../shared/tokens';
import { roleInFamily } from '../campaigns/access';
import { visibleCampaign } from '../campaigns/members';
import { currentUser } from '../http/context';
import { HttpError, notFound, parseOrThrow } from '../http/errors';
import { pathId } from '../http/paths';
import { checkedInHandler, errorAnswer, idParams, routeDoc } from '../openapi/routeDoc';
import { campaignAddress, type DnsResolver, inboundReceiver, newInboundToken } from './service';
import { ensureInboundToken, replaceInboundToken } from './store';

/** POST /api/inbound/email's answer: what came of the message for each of our recipients. */
export const inboundResultsSchema = z.object({
  results: z.array(
    z.object({
      to: z.string(),
      outcome: z.enum(['task', 'comment', 'refused']),
      reason: z.string().optional(),
      item_id: z.number().int().optional(),
    }),
  ),
});

/** `?to=` (repeatable): the recipients, when the provider says them apart from the message's headers. */
const recipientsQuerySchema = z.object({
  to: z
    .union([z.string().max(320), z.array(z.string().max(320)).max(20)])
    .optional()
    .describe('A recipient (repeatable); without it, the To, Cc and Delivered-To headers at our domain.'),
});

/** The raw message a mail provider posted, kept whole but out of sight of the hooks that walk a body's fields. */
class RawMessage {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }
  get bytes(): Buffer {
    return this.#bytes;
  }
}

const RAW_TYPES = ['message/rfc822', 'application/octet-stream'];

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** Whether the bearer secret is the configured one, in time that does not depend on how much matched. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Mail in (ARCHITECTURE §4 'Email', 'In'): a campaign's secret address and its rotation, and
 * POST /api/inbound/email for providers that forward mail by HTTP. `resolver` answers mailauth's DNS
 * questions (tests publish their DKIM keys and DMARC policies with one).
 */
export async function inboundRoutes(
  app: FastifyInstance,
  options: { resolver?: DnsResolver | undefined },
): Promise<void> {
  const db = app.database.db;
  const settings = app.config.email.inbound;
  const receiver = inboundReceiver(app, options.resolver);
  const TAGS = ['Mail in'];
  const campaignParams = idParams('The campaign’s id.');
  const notSeen = errorAnswer('No such campaign or not one the caller may see, or mail in is off.');
  const viewerOnly = errorAnswer('The caller only views the campaign.');

  /** The campaign whose address the caller may read or rotate: its owner and editors. */
  const addressableCampaign = async (request: FastifyRequest): Promise<number> => {
    if (settings.domain === null) throw new HttpError(404, 'Mail in is off on this server.');
    const user = currentUser(request);
    const id = pathId(request, 'Campaign');
    const campaign = await visibleCampaign(db, user.id, id);
    if (!campaign) throw notFound('Campaign');
    const role = await roleInFamily(db, user.id, id);
    if (role !== 'owner' && role !== 'editor') throw new HttpError(403, VIEWER_READ_ONLY_MESSAGE);
    return id;
  };

  const addressDoc = routeDoc({
    summary: 'Read a campaign’s inbound address',
    description:
      'The secret address (`c-…@INBOUND_DOMAIN`) whose mail from a member’s verified address becomes a task in the campaign; made on first read. Owners and editors only.',
    tags: TAGS,
    params: campaignParams,
    answers: {
      200: { description: 'The address.', schema: inboundAddressSchema },
      403: viewerOnly,
      404: notSeen,
    },
  });
  app.get(
    '/campaigns/:id/inbound_address',
    { schema: addressDoc, config: { tokenAccess: 'never' } },
    async (request) => {
      const id = await addressableCampaign(request);
      const token = await ensureInboundToken(db, id, newInboundToken());
      return { address: campaignAddress(token, settings.domain!) };
    },
  );

  const rotateDoc = routeDoc({
    summary: 'Replace a campaign’s inbound address',
    description:
      'A new secret address; mail to the old one then bounces (550 at RCPT) and makes nothing. Owners and editors only.',
    tags: TAGS,
    params: campaignParams,
    answers: {
      200: { description: 'The new address.', schema: inboundAddressSchema },
      403: viewerOnly,
      404: notSeen,
    },
  });
  app.post(
    '/campaigns/:id/inbound_address/rotate',
    { schema: rotateDoc, config: { tokenAccess: 'never' } },
    async (request) => {
      const id = await addressableCampaign(request);
      const token = newInboundToken();
      await replaceInboundToken(db, id, token);
      return { address: campaignAddress(token, settings.domain!) };
    },
  );

  // The raw message is read here only (this plugin's context): elsewhere these types stay a 415.
  for (const type of RAW_TYPES) if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
  app.addContentTypeParser(RAW_TYPES, (_request, payload, done) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let over = false;
    payload.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > settings.maxBytes) over = true;
      else chunks.push(chunk);
    });
    payload.on('error', (error) => done(error, undefined));
    payload.on('end', () => {
      if (over) done(tooLarge(), undefined);
      else done(null, new RawMessage(Buffer.concat(chunks, length)));
    });
  });
  const tooLarge = () =>
    new HttpError(413, `The message is larger than ${megabytes(settings.maxBytes)} (INBOUND_MAX_BYTES).`);

  /** 404 when the route is off, 401 for a wrong secret, 413 for a declared length past the cap: before any byte is read. */
  const checkSecret = async (request: FastifyRequest, _reply: FastifyReply) => {
    const expected = settings.httpToken;
    if (expected === null || settings.domain === null)
      throw new HttpError(404, 'Mail in by HTTP is off on this server.');
    const given = bearerToken(request.headers.authorization);
    if (given === null || !sameSecret(given, expected))
      throw new HttpError(
        401,
        'Send INBOUND_EMAIL_TOKEN as `Authorization: Bearer`.',
        {},
        {
          'WWW-Authenticate': 'Bearer realm="outpost-inbound"',
        },
      );
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > settings.maxBytes) throw tooLarge();
  };

  const receiveDoc = routeDoc({
    summary: 'Receive a mail forwarded by HTTP',
    description:
      'The raw MIME message (`message/rfc822` or `application/octet-stream`), with `Authorization: Bearer INBOUND_EMAIL_TOKEN`. Each recipient at INBOUND_DOMAIN (`?to=`, else the To, Cc and Delivered-To headers) gets an outcome: a task from a member’s verified address to a campaign’s address, a comment from a reply to a notification, or nothing and why. Only a DMARC pass through an aligned DKIM signature vouches for a sender here. The same message again makes nothing more.',
    tags: TAGS,
    querystring: checkedInHandler(recipientsQuerySchema),
    consumes: RAW_TYPES,
    answers: {
      200: { description: 'What came of the message for each recipient.', schema: inboundResultsSchema },
      401: errorAnswer('The bearer secret is missing or wrong.'),
      404: errorAnswer('Mail in by HTTP is off (no INBOUND_EMAIL_TOKEN).'),
      413: errorAnswer('The message is larger than INBOUND_MAX_BYTES.'),
      415: errorAnswer('The body is not a raw message.'),
      422: errorAnswer('No recipient at this server’s mail domain.'),
    },
  });
  app.post(
    '/inbound/email',
    {
      schema: receiveDoc,
      config: { public: true, selfAuthenticated: true, tokenAccess: 'never' },
      bodyLimit: settings.maxBytes,
      onRequest: checkSecret,
    },
    async (request) => {
      if (!(request.body instanceof RawMessage))
        throw new HttpError(415, 'Send the raw message as message/rfc822 or application/octet-stream.');
      const { to } = parseOrThrow(recipientsQuerySchema, request.query);
      const named = to === undefined ? [] : [to].flat();
      const results = await receiver.receiveMessage({
        raw: request.body.bytes,
        envelope: { from: null, to: named },
      });
      if (results.length === 0)
        throw new HttpError(422, `The message names no address at ${settings.domain}.`);
      return { results };
    },
  );
}

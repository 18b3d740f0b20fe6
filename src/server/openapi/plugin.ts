import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TokenAccess } from '../../shared/tokens';
import { WEBHOOK_EVENT_SUMMARIES, webhookPayloadSchemaOf } from '../../shared/webhookPayloads';
import { WEBHOOK_EVENTS, WEBHOOK_PAYLOAD_MAX_BYTES, type WebhookEventType } from '../../shared/webhooks';
import { SESSION_COOKIE } from '../http/session';
import { declaredTokenAccess } from '../tokens/policy';
import { operationIdOf, webhookOperationIdOf } from './operationId';
import { registerResponseCheck, responseCheckOn } from './responseCheck';
import { routeDoc, serializerCompiler, validatorCompiler } from './routeDoc';

/** The readable reference (swagger-ui, served from this server's own files). */
export const DOCS_PREFIX = '/api/docs';
/** Whether a route pattern is the reference page or one of its files. */
export const isDocsPath = (url: string): boolean => url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);

/** The document itself. */
export const OPENAPI_URL = '/api/openapi.json';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const ERROR_REF = { $ref: '#/components/schemas/Error' };

const DESCRIPTION = `The HTTP API of Outpost, the offline-first tracker: the same API the app uses.

JSON in and out. Every error answer has a human \`message\`:
401 unauthenticated, 403 an action the caller sees but may not do, 404 anything the caller may not see
(never 403 there) and unknown routes, 412 a stale \`If-Match\` version (the server's copy attached),
419 a missing or wrong anti-forgery token, 422 invalid input (\`{message, errors: {field: [text]}}\`),
429 rate limited (with \`Retry-After\`). No input produces a 5xx; 503 means the database is away for a
moment (with \`Retry-After\`).

**Signing in with a cookie** (the app's way): \`GET /sanctum/csrf-cookie\` sets the \`XSRF-TOKEN\`
cookie; \`POST /api/login\` starts a session; every POST, PATCH, PUT and DELETE sends the cookie's
value in \`X-XSRF-TOKEN\`.

**With a personal access token** (scripts, integrations): \`Authorization: Bearer opk_…\`, no
anti-forgery token. A token's scopes limit what it reaches: each operation names the scope it needs
(\`read\`, \`write\` or \`webhooks\`, in its bearer requirement and in \`x-required-scope\`), and one
reachable only from a signed-in session offers no bearer at all (a token there is answered 403).

**Webhooks** (the \`webhooks\` section): the signed deliveries Outpost sends to a webhook's URL, one
per event, with the body each carries.

Every POST, PATCH and DELETE may carry \`Idempotency-Key\`: a repeat answers with the recorded answer.`;

const TAGS = [
  { name: 'Auth', description: 'Anti-forgery cookie, sign-in, the session and the profile.' },
  { name: 'Items', description: 'Campaigns, tasks and todos.' },
  { name: 'Trash and export', description: 'Deleted items, restore, and the Outpost JSON export.' },
  { name: 'Comments and history', description: 'An item’s timeline: comments, mutes and its history.' },
  { name: 'Time', description: 'Time entries, the running timer and the time report.' },
  { name: 'Files', description: 'Files on items: uploads, their bytes and thumbnails, deletes.' },
  { name: 'Campaigns', description: 'Members, invites and a campaign’s activity.' },
  { name: 'Contacts', description: 'The address book (phones only) and mutual contacts.' },
  { name: 'Sync', description: 'Changes since a cursor, and the live event stream.' },
  { name: 'Notifications', description: 'Notifications and Web Push subscriptions.' },
  { name: 'Calendar', description: 'The secret calendar feed (iCalendar).' },
  { name: 'Running it', description: 'Health, readiness and this document.' },
  { name: 'Tokens', description: 'Personal access tokens for scripts, integrations and agents.' },
  { name: 'Webhooks', description: 'Signed deliveries of changes (Standard Webhooks v1) and their log.' },
  { name: 'Devices', description: 'Where the person is signed in, and signing a device out.' },
  { name: 'Passkeys', description: 'Adding passkeys, and signing in with one alone.' },
  {
    name: 'Email',
    description: 'Your address, which mails you get, the test mail and one-click unsubscribe.',
  },
  { name: 'Mail in', description: 'Campaigns’ secret addresses, and mail forwarded by HTTP.' },
  { name: 'Templates', description: 'Saved campaigns, tasks and checklists, and creating from them.' },
  { name: 'Views', description: 'Saved filter-language queries, personal or shared with a campaign.' },
];

/** How a token's scope is said in an operation's description. */
const SCOPE_LINE: Record<TokenAccess, string> = {
  read: 'Access token: needs the `read` scope.',
  write: 'Access token: needs the `write` scope.',
  webhooks: 'Access token: needs the `webhooks` scope.',
  caldav: 'Access token: needs the `caldav` scope (a calendar app, at /dav/).',
  never: 'Access token: none reaches this; only a signed-in session (a token is answered 403).',
};

/**
 * Declares what every route shares, from its method and config, so no route repeats it: who may
 * call it (security: the cookie session, with the anti-forgery header on writes, and a bearer token
 * with the scope its token policy names, tokens/policy.ts; none where the policy is `never`), its
 * `operationId`, the answers of the request hooks in app.ts (401 without a session, 403 for a token
 * without the scope, 419 without the anti-forgery token, 429 for too many writes), the 4XX any
 * request may get before it reaches a route, and the `Idempotency-Key` header of writes.
 */
function crossCutting(route: RouteOptions, schema: Record<string, unknown>): Record<string, unknown> {
  const method = String(route.method);
  const config = (route.config ?? {}) as {
    public?: boolean;
    tokenAccess?: TokenAccess;
    selfAuthenticated?: boolean;
  };
  const api = route.url.startsWith('/api/');
  const write = WRITES.has(method);
  const responses = { ...(schema.response as Record<string, unknown> | undefined) };
  const add = (status: number | string, description: string) => {
    responses[status] ??= { description, content: { 'application/json': { schema: ERROR_REF } } };
  };
  const out: Record<string, unknown> = { ...schema, operationId: operationIdOf(method, route.url) };
  if (config.selfAuthenticated === true) {
    // Its credential is its own (a signed token in the URL, or a bearer secret it checks): none of
    // the session's answers, anti-forgery's or idempotency's apply.
    out.security = [];
  } else if (config.public === true || !api) {
    out.security = [];
  } else {
    const access = declaredTokenAccess(method, route.url, config) ?? 'never';
    const cookie = write ? { session: [], xsrf: [] } : { session: [] };
    // OpenAPI 3.1 lets a non-OAuth requirement list role names: here, the token scope it needs.
    out.security = access === 'never' ? [cookie] : [cookie, { bearer: [access] }];
    if (access !== 'never') out['x-required-scope'] = access;
    out.description = [schema.description, SCOPE_LINE[access]].filter(Boolean).join('\n\n');
    add(401, 'No session or token, or one that has ended: `Unauthenticated.`');
    const token =
      access === 'never'
        ? 'an access token: none may do this'
        : `an access token without the \`${access}\` scope`;
    const forbidden = responses[403] as { description?: string } | undefined;
    if (forbidden?.description)
      responses[403] = { ...forbidden, description: `${forbidden.description} Or ${token}.` };
    else add(403, `${token.charAt(0).toUpperCase()}${token.slice(1)}.`);
  }
  if (api && write && config.selfAuthenticated !== true) {
    add(419, 'A cookie-session write without the matching `X-XSRF-TOKEN`: `CSRF token mismatch.`');
    if (config.public !== true)
      add(429, 'Too many changes in a short time; `Retry-After` says when to try again.');
    const headers = (out.headers ?? { type: 'object', properties: {} }) as {
      properties?: Record<string, unknown>;
    };
    out.headers = {
      ...headers,
      properties: {
        ...headers.properties,
        'Idempotency-Key': {
          type: 'string',
          maxLength: 255,
          description: 'A repeat with the same key answers with the recorded answer (kept 7 days).',
        },
      },
    };
  }
  // Any request may be refused before it reaches its route (the HTTP layer's own answers).
  add(
    '4XX',
    'A request that could not be read: malformed (400), too slow to arrive (408), headers too large (431).',
  );
  out.response = responses;
  return out;
}

/** The headers every delivery carries (Standard Webhooks v1): verify them before trusting the body. */
const SIGNATURE_HEADERS = [
  {
    in: 'header',
    name: 'webhook-id',
    required: true,
    description: 'One per event and endpoint, the same on every retry: drop repeats by it.',
    schema: { type: 'string' },
  },
  {
    in: 'header',
    name: 'webhook-timestamp',
    required: true,
    description: 'When this attempt was signed, in unix seconds.',
    schema: { type: 'string' },
  },
  {
    in: 'header',
    name: 'webhook-signature',
    required: true,
    description:
      '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the secret (`whsec_…`) decoded; two, space-separated, for 24 h after a rotation.',
    schema: { type: 'string' },
  },
];

/**
 * The document's `webhooks` (OpenAPI 3.1): what Outpost sends to a webhook's URL, one entry per
 * event, each body the named schema of shared/webhookPayloads.ts (a component beside the API's).
 */
function webhooksSection(): Record<string, unknown> {
  const events: WebhookEventType[] = [...WEBHOOK_EVENTS, 'webhook.test'];
  return Object.fromEntries(
    events.map((event) => {
      const component = (webhookPayloadSchemaOf(event).meta() as { id?: string } | undefined)?.id;
      if (!component) throw new Error(`The ${event} payload schema has no component name`);
      const post = {
        operationId: webhookOperationIdOf(event),
        summary: WEBHOOK_EVENT_SUMMARIES[event],
        description: `\`POST\` to the webhook's URL with \`type: ${event}\`, signed (Standard Webhooks v1): verify \`webhook-signature\` with the secret before trusting the body. Only about what the webhook's owner can see; the body stays under ${WEBHOOK_PAYLOAD_MAX_BYTES / 1024} KB.${event === 'webhook.test' ? ' Sent by hand, at once, whatever events the webhook hears.' : ''}`,
        tags: ['Webhooks'],
        // The receiver checks the signature headers above; no scheme of this API applies.
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${component}` } } },
        },
        responses: {
          '2XX': { description: 'Received: the delivery is done. Answer quickly.' },
          '410': { description: 'Gone: the webhook is turned off, and nothing more is sent to it.' },
          default: {
            description:
              'Anything else (a redirect too, or no answer within 10 s): tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h with the same `webhook-id`, then marked failed.',
          },
        },
      };
      return [event, { post }];
    }),
  );
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, unknown> };
  [key: string]: unknown;
}

/**
 * The document without the request-side copies (`ItemInput`…) of named schemas that no request
 * uses: the zod transform emits an input and an output component for every named schema.
 */
function withoutUnusedInputs(document: OpenApiDocument): OpenApiDocument {
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const text = JSON.stringify({ ...document, components: { ...document.components, schemas: {} } });
  const kept = Object.entries(schemas).filter(
    ([name]) => !name.endsWith('Input') || text.includes(`"#/components/schemas/${name}"`),
  );
  return { ...document, components: { ...document.components, schemas: Object.fromEntries(kept) } };
}

/**
 * The documented API (ARCHITECTURE §4): zod validation and serialisation for every route, the
 * OpenAPI 3.1 document built from the routes' zod schemas at `GET /api/openapi.json`, and the
 * reference page at `/api/docs`. Registered before any route, so every route is collected. The
 * page's code (swagger-ui, a few MB) is read from disk only when someone opens it.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  // Every path is under the server's origin (PUBLIC_URL): /api, /sanctum, /cal.
  const servers = [{ url: app.config.publicUrl.origin, description: 'This Outpost server (PUBLIC_URL).' }];
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The reference page and its files are public and hold no session: marked before the request
  // hooks read the config (app.ts lets them through without a session lookup).
  app.addHook('onRoute', (route) => {
    if (isDocsPath(route.url)) {
      route.config = { ...route.config, public: true, referencePage: true };
    }
  });
  if (responseCheckOn()) registerResponseCheck(app);

  const zodTransform = createJsonSchemaTransform({ skipList: [] });
  const zodTransformObject = createJsonSchemaTransformObject({});
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Outpost API', version: '1', description: DESCRIPTION },
      tags: TAGS,
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description:
              'The session cookie `POST /api/login` sets (`__Host-outpost_session` over HTTPS). Writes also need `xsrf`.',
          },
          xsrf: {
            type: 'apiKey',
            in: 'header',
            name: 'X-XSRF-TOKEN',
            description:
              'The value of the `XSRF-TOKEN` cookie (`GET /sanctum/csrf-cookie`), on every cookie-session write.',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'opk_…',
            description: 'A personal access token: `Authorization: Bearer opk_…`. No anti-forgery token.',
          },
        },
      },
    },
    transform: (input) => {
      const result = zodTransform(input);
      const schema = result.schema as Record<string, unknown> | undefined;
      if (!schema || schema.hide) return result;
      return { ...result, schema: crossCutting(input.route, schema) };
    },
    transformObject: (input) => {
      const { openapi, info, tags, ...rest } = zodTransformObject(input) as OpenApiDocument;
      const document = { openapi, info, servers, tags, ...rest, webhooks: webhooksSection() };
      return withoutUnusedInputs(document) as ReturnType<typeof zodTransformObject>;
    },
  });

  app.get(
    OPENAPI_URL,
    {
      config: { public: true },
      schema: routeDoc({
        summary: 'This document',
        description:
          'The OpenAPI 3.1 document of this API, generated from the schemas the routes validate with.',
        tags: ['Running it'],
        answers: {
          200: { description: 'The OpenAPI document.', schema: z.looseObject({ openapi: z.string() }) },
        },
      }),
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return app.swagger();
    },
  );

  // Only the reference page loads swagger-ui's files, and only when it is opened.
  await app.register(async (docs) => {
    const { default: fastifySwaggerUi } = await import('@fastify/swagger-ui');
    await docs.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0 },
      theme: { title: 'Outpost API' },
    });
  });
}

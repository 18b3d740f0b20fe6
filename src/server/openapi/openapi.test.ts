import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp } from '../../../testkit/server';
import { signedIn } from '../../../testkit/testClient';
import { WEBHOOK_EVENTS } from '../../shared/webhooks';
import { CONTENT_SECURITY_POLICY } from '../http/securityHeaders';
import { operationIdOf } from './operationId';
import { DOCS_PREFIX, OPENAPI_URL } from './plugin';
import { registerResponseCheck, responseMismatches } from './responseCheck';
import { routeDoc, serializerCompiler, validatorCompiler } from './routeDoc';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-required-scope'?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { description?: string }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post?: Operation }>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string }> };
}

/**
 * Registered routes the document leaves out: the reference page (`/api/docs` and its swagger-ui
 * files) is kept out of the route table itself (app.ts), so every route the table holds under
 * /api, /sanctum or /cal must be documented; there is no other exclusion.
 */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A fastify route pattern as an OpenAPI path: `/items/:id` → `/items/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('the documented API', () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let document: Document;
  beforeAll(async () => {
    harness = await createTestApp();
    const response = await harness.app.inject({ url: OPENAPI_URL });
    expect(response.statusCode).toBe(200);
    document = JSON.parse(response.body) as Document;
  });
  afterAll(() => harness?.close());

  it('documents every registered route a caller can reach (walked through onRoute), the reference page aside', () => {
    const reachable = harness.app.routeTable.filter(
      (r) => r.method !== 'HEAD' && /^\/(api|sanctum|cal)(\/|$)/.test(r.url),
    );
    expect(reachable.length).toBeGreaterThan(40);
    const missing = reachable
      .filter((r) => !document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    expect(reachable.some((r) => r.url.startsWith(DOCS_PREFIX))).toBe(false);
    expect(Object.keys(document.paths).some((p) => p.startsWith(DOCS_PREFIX))).toBe(false);
  });

  it('is an OpenAPI 3.1 document with paths, components and the three ways in', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toBe('Outpost API');
    expect(Object.keys(document.paths).length).toBeGreaterThan(30);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Item', 'Error', 'ValidationError', 'Comment', 'User']),
    );
    expect(document.components.securitySchemes).toMatchObject({
      session: { type: 'apiKey', in: 'cookie', name: 'outpost_session' },
      xsrf: { type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN' },
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'opk_…' },
    });
    // Every reference resolves.
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(20);
    for (const [, name] of refs) expect(document.components.schemas, name).toHaveProperty(name!);
  });

  it('gives every operation a summary, a tag, described answers, its path parameters and its security', () => {
    const tags = new Set((document as unknown as { tags: { name: string }[] }).tags.map((t) => t.name));
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(METHODS, where).toContain(method);
        expect(operation.summary, where).toBeTruthy();
        expect(operation.tags?.length, where).toBe(1);
        expect(tags.has(operation.tags![0]!), where).toBe(true);
        for (const [status, answer] of Object.entries(operation.responses)) {
          expect(answer.description, `${where} ${status}`).toBeTruthy();
          expect(answer.description, `${where} ${status}`).not.toBe('Default Response');
        }
        expect(operation.responses.default, where).toBeDefined();
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
          expect(
            operation.parameters?.some((p) => p.in === 'path' && p.name === name),
            `${where} {${name}}`,
          ).toBe(true);
        }
        expect(operation.security, where).toBeDefined();
      }
    }
  });

  it('documents the cookie session (with the anti-forgery header on writes) and bearer tokens, and the errors of each', () => {
    const create = document.paths['/api/items']!.post!;
    expect(create.security).toEqual([{ session: [], xsrf: [] }, { bearer: ['write'] }]);
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['200', '201', '401', '403', '419', '422', '429', 'default']),
    );
    expect(create.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'Idempotency-Key' })]),
    );
    const list = document.paths['/api/items']!.get!;
    expect(list.security).toEqual([{ session: [] }, { bearer: ['read'] }]);
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '401', '422']));
    expect(list.responses['419']).toBeUndefined();
    const patch = document.paths['/api/items/{id}']!.patch!;
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(['403', '404', '412', '422']));
    // Public routes need nothing.
    expect(document.paths['/api/login']!.post!.security).toEqual([]);
    expect(document.paths['/sanctum/csrf-cookie']!.get!.security).toEqual([]);
    expect(document.paths['/cal/{file}']!.get!.security).toEqual([]);
  });

  it('offers bearer exactly where the token policy lets a token in, naming the scope it needs', () => {
    const routes = harness.app.routeTable.filter(
      (r) => r.method !== 'HEAD' && r.url.startsWith('/api/') && !r.public && !r.selfAuthenticated,
    );
    expect(routes.length).toBeGreaterThan(60);
    let cookieOnly = 0;
    for (const route of routes) {
      const where = `${route.method} ${route.url}`;
      const operation = document.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      const cookie = WRITE_METHODS.has(route.method) ? { session: [], xsrf: [] } : { session: [] };
      const access = route.tokenAccess ?? 'never';
      if (access === 'never') {
        cookieOnly++;
        expect(operation.security, where).toEqual([cookie]);
        expect(operation['x-required-scope'], where).toBeUndefined();
        expect(operation.description, where).toContain('Access token: none reaches this');
      } else {
        expect(operation.security, where).toEqual([cookie, { bearer: [access] }]);
        expect(operation['x-required-scope'], where).toBe(access);
        expect(operation.description, where).toContain(`needs the \`${access}\` scope`);
      }
      expect(operation.responses['403'], where).toBeDefined();
    }
    // The tokens, members, invites, devices, passkeys and account routes, at the time of writing.
    expect(cookieOnly).toBeGreaterThan(30);
    expect(document.paths['/api/tokens']!.get!.security).toEqual([{ session: [] }]);
    expect(document.paths['/api/campaigns/{id}/members']!.post!.security).toEqual([
      { session: [], xsrf: [] },
    ]);
    expect(document.paths['/api/webhooks']!.post!.security).toEqual([
      { session: [], xsrf: [] },
      { bearer: ['webhooks'] },
    ]);
  });

  it('gives every operation an operationId from its method and route, unique across the document', () => {
    const ids: string[] = [];
    for (const route of harness.app.routeTable.filter(
      (r) => r.method !== 'HEAD' && /^\/(api|sanctum|cal)(\/|$)/.test(r.url),
    )) {
      const operation = document.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      expect(operation.operationId, `${route.method} ${route.url}`).toBe(
        operationIdOf(route.method, route.url),
      );
    }
    for (const operations of Object.values(document.paths))
      for (const operation of Object.values(operations)) ids.push(operation.operationId!);
    for (const hook of Object.values(document.webhooks)) ids.push(hook.post!.operationId!);
    expect(ids.every((id) => /^[A-Za-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Stable: the same route keeps the same id.
    expect(document.paths['/api/items/{id}/comments']!.post!.operationId).toBe('postItemsByIdComments');
    expect(document.paths['/api/time_entries.csv']!.get!.operationId).toBe('getTimeEntriesCsv');
    expect(document.paths['/api/webhooks/{id}/deliveries/{delivery_id}/retry']!.post!.operationId).toBe(
      'postWebhooksByIdDeliveriesByDeliveryIdRetry',
    );
    expect(document.paths['/sanctum/csrf-cookie']!.get!.operationId).toBe('getSanctumCsrfCookie');
    expect(document.webhooks['member.updated']!.post!.operationId).toBe('onMemberUpdated');
  });

  it('names the server by PUBLIC_URL and gives every operation a 4XX answer of the Error shape', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: harness.app.config.publicUrl.origin })]);
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const fours = Object.entries(operation.responses).filter(([status]) => status.startsWith('4'));
        expect(fours.length, `${method} ${path}`).toBeGreaterThan(0);
        expect(operation.responses['4XX'], `${method} ${path}`).toMatchObject({
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        });
      }
    }
  });

  it('describes every webhook event’s delivery, member events with the members routes’ Member shape', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENTS, 'webhook.test'].sort());
    expect(Object.keys(document.webhooks)).toContain('member.updated');
    for (const [event, hook] of Object.entries(document.webhooks)) {
      const post = hook.post!;
      expect(post.summary, event).toBeTruthy();
      expect(post.tags, event).toEqual(['Webhooks']);
      const ref = post.requestBody!.content['application/json'].schema.$ref;
      const name = ref.replace('#/components/schemas/', '');
      expect(document.components.schemas, event).toHaveProperty(name);
      const type = (
        document.components.schemas[name] as { properties: { type: { enum?: string[]; const?: string } } }
      ).properties.type;
      expect([...(type.enum ?? []), type.const], event).toContain(event);
      expect(Object.keys(post.responses), event).toEqual(expect.arrayContaining(['2XX', '410']));
      expect(
        post.parameters?.map((p) => p.name),
        event,
      ).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
    const memberEvent = document.components.schemas.MemberEvent as {
      properties: { data: { properties: { member: { $ref: string }; previous_role: unknown } } };
    };
    expect(memberEvent.properties.data.properties.member.$ref).toBe('#/components/schemas/Member');
    expect(memberEvent.properties.data.properties.previous_role).toBeDefined();
    const members = document.paths['/api/campaigns/{id}/members']!.get!.responses['200'] as unknown as {
      content: { 'application/json': { schema: unknown } };
    };
    expect(JSON.stringify(members.content['application/json'].schema)).toContain(
      '#/components/schemas/Member"',
    );
  });

  it('documents request bodies and queries from the very schemas the routes validate with', () => {
    const body = (
      document.paths['/api/items']!.post as unknown as {
        requestBody: {
          content: {
            'application/json': { schema: { properties: Record<string, unknown>; required: string[] } };
          };
        };
      }
    ).requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['title', 'type']));
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['title', 'type', 'parent_id', 'uuid']),
    );
    const query = document.paths['/api/items']!.get!.parameters!.filter((p) => p.in === 'query').map(
      (p) => p.name,
    );
    expect(query).toEqual(expect.arrayContaining(['type', 'status', 'parent_id', 'page', 'per_page']));
  });

  it('serves the reference page and its files from this server, without a session, under the app’s CSP', async () => {
    const page = await harness.app.inject({ url: DOCS_PREFIX });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.body).toContain('Outpost API');
    // Every script and stylesheet is this server's own (no CDN), and none is inline.
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) expect(source).toMatch(/^\/api\/docs\/static\//);
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)|<script(?![^>]*\bsrc=)[^>]*>/);
    for (const source of sources.filter((s) => /\.(js|css)$/.test(s))) {
      const asset = await harness.app.inject({ url: source });
      expect(asset.statusCode, source).toBe(200);
      expect(asset.body.length, source).toBeGreaterThan(100);
    }
    // The page reads the document from beside it.
    const json = await harness.app.inject({ url: `${DOCS_PREFIX}/json` });
    expect(JSON.parse(json.body)).toMatchObject({ openapi: document.openapi });
  });

  it('answers an unknown path under the reference page with the JSON 404 of any unknown /api route', async () => {
    const response = await harness.app.inject({ url: `${DOCS_PREFIX}/static/nothing-here.js` });
    expect(response.statusCode).toBe(404);
  });

  it('keeps the 422 texts of the handlers when validation runs before them', async () => {
    const client = await signedIn(harness.app, 'Validated');
    const response = await client.post<{ message: string; errors: Record<string, string[]> }>('/api/items', {
      type: 'todo',
      colour: 'red',
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({
      title: ['The title is required.'],
      colour: ['The colour field is not allowed.'],
    });
    const bad = await client.get<{ errors: Record<string, string[]> }>('/api/items?per_page=x');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ per_page: ['Must be a number.'] });
  });
});

describe('the answer check', () => {
  it('records an answer that does not match its documented schema, and one of an undocumented shape', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerResponseCheck(app);
    const doc = routeDoc({
      summary: 'A route that lies',
      tags: ['Test'],
      answers: { 200: { description: 'A count.', schema: z.strictObject({ count: z.number() }) } },
    });
    app.get('/lies', { schema: doc }, async () => ({ count: 'three' }));
    app.get('/extra', { schema: doc }, async () => ({ count: 3, secret: 'x' }));
    app.get('/truth', { schema: doc }, async () => ({ count: 3 }));
    await app.ready();
    try {
      for (const url of ['/lies', '/extra', '/truth'])
        expect((await app.inject({ url })).statusCode).toBe(200);
      const found = responseMismatches.splice(0);
      expect(found.map((m) => m.route)).toEqual(['/lies', '/extra']);
      expect(found[0]!.problem).toContain('count');
      expect(found[1]!.problem).toContain('secret');
    } finally {
      responseMismatches.splice(0);
      await app.close();
    }
  });
});

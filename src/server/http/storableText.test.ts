import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngines } from '../../../testkit/server';
import { SoftAuthenticator } from '../../../testkit/softAuthenticator';
import { signedIn, type TestClient } from '../../../testkit/testClient';
import { passkeySchema } from '../../shared/passkeys';
import type { WebhookCreated } from '../../shared/webhooks';
import { buildApp } from '../app';
import { type Database, rows, sql } from '../db/client';
import { loadConfig } from '../env';

/** The default PUBLIC_URL: the relying party every test app runs as. */
const ORIGIN = 'http://localhost:3000';
const NUL_TEXT = 'Fuzz \u0000 text';
const NUL_MESSAGE = /must not contain a NUL character/;

type Json = Record<string, unknown>;
interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

/**
 * One body per text field of `schema` (an OpenAPI JSON schema, $refs followed): the field at its
 * place holds `text`, the objects around it nothing else. Keyed by the field's dotted path.
 */
function textFieldBodies(schema: Json, doc: OpenApiDocument, text: string): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const resolve = (s: Json): Json => {
    const ref = s.$ref;
    if (typeof ref !== 'string') return s;
    const name = ref.replace('#/components/schemas/', '');
    return resolve(doc.components?.schemas?.[name] ?? {});
  };
  const walk = (raw: Json, path: string[], wrap: (value: unknown) => unknown, depth: number) => {
    if (depth > 6) return;
    const s = resolve(raw);
    for (const branch of [...((s.anyOf as Json[]) ?? []), ...((s.oneOf as Json[]) ?? [])])
      walk(branch, path, wrap, depth + 1);
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.includes('string') && !s.enum && s.const === undefined) found.set(path.join('.'), wrap(text));
    if (types.includes('array') && s.items)
      walk(s.items as Json, [...path, '0'], (value) => wrap([value]), depth + 1);
    for (const [key, inner] of Object.entries((s.properties as Record<string, Json>) ?? {}))
      walk(inner, [...path, key], (value) => wrap({ [key]: value }), depth + 1);
  };
  walk(schema, [], (value) => value, 0);
  return found;
}

describe.each(testEngines())('text the database cannot store (%s)', (engine) => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let person: TestClient;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    app = await buildApp({
      database,
      config: { seedSampleUsers: true, webhooks: { ...loadConfig({}).webhooks, allowLoopback: true } },
    });
    await app.ready();
    person = await signedIn(app, 'Nul Sender');
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const expectRefused = (response: { status: number; body: unknown; text: string }, what: string) => {
    expect(response.status, `${what}: ${response.text}`).toBe(422);
    expect((response.body as { message: string }).message, what).toMatch(NUL_MESSAGE);
  };

  it('refuses a NUL in a passkey’s new name with a 422 that names the field, and keeps the name', async () => {
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await person.post<never>('/api/passkeys/register/options');
    const added = await person.post('/api/passkeys/register', {
      response: authenticator.create(options.body),
      name: 'Work laptop',
    });
    expect(added.status, added.text).toBe(201);
    const passkey = passkeySchema.parse(added.body);

    const renamed = await person.patch(`/api/passkeys/${passkey.id}`, { name: 'Work\u0000laptop' });
    expectRefused(renamed, 'PATCH passkey');
    expect((renamed.body as { errors: Json }).errors).toEqual({ name: [expect.stringMatching(NUL_MESSAGE)] });
    const listed = await person.get<{ name: string }[]>('/api/passkeys');
    expect(JSON.stringify(listed.body)).toContain('Work laptop');
  });

  it('refuses a NUL in a webhook’s URL, on create and on edit, and keeps the webhook as it was', async () => {
    const url = 'https://hooks.example.com/nul';
    expectRefused(
      await person.post('/api/webhooks', { url: `${url}\u0000x`, events: ['item.created'] }),
      'POST webhook',
    );
    const created = await person.post<WebhookCreated>('/api/webhooks', { url, events: ['item.created'] });
    expect(created.status, created.text).toBe(201);
    expectRefused(
      await person.patch(`/api/webhooks/${created.body.id}`, { url: `${url}\u0000` }),
      'PATCH webhook',
    );
    const listed = await person.get<{ id: number; url: string }[]>('/api/webhooks');
    expect(JSON.stringify(listed.body)).toContain(`"url":"${url}"`);
  });

  it('refuses a NUL in every text field, path and query parameter of every route the API documents, never a 5xx', async () => {
    const doc = (await person.get<OpenApiDocument>('/api/openapi.json')).body;
    const cases: { method: string; url: string; body?: unknown; field: string }[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        const fill = (nul: string | null) =>
          template.replace(/\{(\w+)\}/g, (_, name: string) => (name === nul ? '%00' : '1'));
        const upper = method.toUpperCase();
        for (const name of pathParams) cases.push({ method: upper, url: fill(name), field: name });
        const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        // An undeclared one too: a parameter a handler reads without declaring it is no way round.
        for (const name of [...queryParams, 'undeclared'])
          cases.push({ method: upper, url: `${fill(null)}?${name}=a%00b`, field: name });
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        for (const [field, body] of textFieldBodies(schema, doc, NUL_TEXT))
          cases.push({ method: upper, url: fill(null), body, field });
        cases.push({ method: upper, url: fill(null), body: { ['bad\u0000key']: 1 }, field: '' });
      }
    }
    // Every text field of the bodies this test knows of is among them (the walk finds nested ones).
    const fields = new Set(cases.map((c) => `${c.method} ${c.url.split('?')[0]} ${c.field}`));
    for (const expected of [
      'PATCH /api/passkeys/1 name',
      'POST /api/webhooks url',
      'PATCH /api/webhooks/1 url',
      'POST /api/items/batch items.0.title',
      'POST /api/passkeys/register response.response.transports.0',
      'POST /api/contacts/sync contacts.0',
    ])
      expect(fields).toContain(expected);
    expect(cases.length).toBeGreaterThan(150);

    // A route with a credential of its own (mail in by HTTP) refuses a caller without it before it
    // reads anything: a 401 or 404 there is the refusal, and tells nothing about the input.
    const ownCredential = new Set(
      person.app.routeTable.filter((r) => r.selfAuthenticated).map((r) => `${r.method} ${r.url}`),
    );
    const wrong: string[] = [];
    for (const c of cases) {
      const response = await person.request({ method: c.method, url: c.url, body: c.body });
      const message = (response.body as { message?: unknown } | undefined)?.message;
      const path = c.url.split('?')[0]!;
      if (ownCredential.has(`${c.method} ${path}`) && (response.status === 401 || response.status === 404))
        continue;
      if (response.status !== 422 || typeof message !== 'string' || !NUL_MESSAGE.test(message))
        wrong.push(`${c.method} ${c.url} ${c.field}: ${response.status} ${response.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a lone surrogate as well, and stores text with real pairs as before', async () => {
    const person = await signedIn(app, 'Pair Sender');
    expect((await person.patch('/api/me', { name: 'Half \ud83d' })).status).toBe(422);
    const renamed = await person.patch<{ name: string }>('/api/me', { name: 'Whole 🙂' });
    expect(renamed.status, renamed.text).toBe(200);
    const [row] = await rows<{ name: string }>(
      database.db,
      sql`SELECT name FROM users WHERE id = ${person.user!.id}`,
    );
    expect(row?.name).toBe('Whole 🙂');
  });
});

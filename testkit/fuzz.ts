/**
 * The route fuzzer shared by the bad-input test (a small run in `npm test`) and `npm run bench --
 * fuzz` (at least 1,000 cases per route): random ids, query strings, headers and bodies, including
 * huge, deeply nested, malformed and wrong-typed ones, against every route of `app.routeTable`, as a
 * signed-in caller with a valid anti-forgery token (so requests reach the handlers), as the same
 * caller without a valid token, as a caller with no session, and as a script holding a personal
 * access token with every scope (`Authorization: Bearer`, no cookie), now and then a forged one. Every answer must be below 500,
 * and every 4xx must carry a human `message`.
 *
 * Besides the random cases, a fixed sweep sends text PostgreSQL cannot store (a NUL, a lone high and a
 * lone low surrogate) in every body field of every write route, on top of an otherwise valid body, and
 * in every query parameter and path parameter of every read route: those reach the database only when
 * everything else about the request is right, which random cases rarely are.
 *
 * It uses `app.inject` (no sockets) for speed and has no test-framework imports, so the bench can use
 * it outside vitest. Cases are sampled, not shrunk: every failure is kept with the exact request, so
 * one run reports how many there are and each one can be replayed by hand.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';

export type Caller = 'signed-in' | 'bad-xsrf' | 'anonymous' | 'bearer';

export interface FuzzRoute {
  method: string;
  url: string;
}

export interface FuzzFailure {
  caller: Caller;
  method: string;
  url: string;
  status: number;
  /** What was sent, shortened. */
  sent: string;
  /** What came back, shortened. */
  answer: string;
  problem: '5xx' | 'no message' | 'threw';
}

export interface FuzzResult {
  /** Random cases (`runsPerRoute` a route). */
  cases: number;
  /** Cases of the fixed sweep of unstorable text through every field and parameter. */
  sweepCases: number;
  perRoute: Map<string, number>;
  /** Answers of 500 or more, and inject calls that threw (the app failed to answer at all). */
  serverErrors: number;
  /** 4xx answers without a `message` (the API promises one on every error). */
  missingMessage: number;
  statusCounts: Map<number, number>;
  /** The first few failures, with the exact request. */
  failures: FuzzFailure[];
}

export const FUZZ_BAD_IDS = [
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999',
  '1e999',
  '%20',
  'NaN',
  'Infinity',
  '0x10',
  "1'--",
  '١٢٣',
  'é',
  '🙂',
  '\u0000',
  '2147483648',
  '9007199254740993',
];

/**
 * Text PostgreSQL cannot store as it is: a NUL fails the insert, a lone surrogate (either half) has no
 * UTF-8 form. Every string field and parameter gets each of these.
 */
export const FUZZ_UNSTORABLE = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'a\ud83db',
  '\udc00',
  'a\ude00b',
  '\udbff\udbff',
  '\udfff\ud800',
];

/** The sweep's share: one NUL, one lone high and one lone low surrogate, inside ordinary text. */
const SWEEP_UNSTORABLE = ['Fuzz \u0000 text', 'Fuzz \ud83d text', 'Fuzz \ude00 text'];

/** Every body field the API knows, and a few it does not. */
const BODY_FIELDS = [
  'title',
  'type',
  'status',
  'description',
  'parent_id',
  'assigned_to',
  'user_id',
  'due_date',
  'end_date',
  'uuid',
  'contacts',
  'phone',
  'name',
  'code',
  'ids',
  'endpoint',
  'q',
];

/** Fields only some routes read, swept on those routes alone (the sweep stays short). */
const ROUTE_BODY_FIELDS: Record<string, string[]> = {
  'POST /api/tokens': ['scopes', 'expires_in_days'],
};

/** Every query parameter the API reads. */
const QUERY_KEYS = ['type', 'status', 'parent_id', 'page', 'per_page', 'q', 'cursor', 'user_id'];

/** A body each write route takes, so that the one hostile field is all that is wrong with it. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/items': { title: 'Fuzz sweep', type: 'todo' },
  'POST /api/login': { phone: '+12025550142', name: 'Fuzzer' },
  'POST /api/login/code': { phone: '+12025550142' },
  'POST /api/contacts/sync': { contacts: [] },
  'POST /api/tokens': { name: 'Fuzz sweep', scopes: ['read'] },
};

/**
 * `encodeURIComponent`, except that a lone surrogate, which it refuses, is sent as its WTF-8 bytes
 * (what a careless client would send): the server must cope with those too.
 */
export function encodeComponent(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const FUZZ_PHONE = '+12025550142';
const MAX_FAILURES_KEPT = 20;

/** A minimal browser-like caller over `app.inject`: a cookie jar, XSRF echoed on writes. */
class InjectCaller {
  readonly jar = new Map<string, string>();
  /** Sent as the Authorization header when set: a script's caller, which keeps no cookies. */
  authorization: string | null = null;
  constructor(private readonly app: FastifyInstance) {}

  async send(options: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    payload?: string;
    xsrf?: string | null;
  }) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.authorization !== null) headers.authorization = this.authorization;
    const token = this.jar.get('XSRF-TOKEN');
    if (STATE_CHANGING.has(options.method)) {
      if (options.xsrf === undefined && token) headers['x-xsrf-token'] = decodeURIComponent(token);
      else if (typeof options.xsrf === 'string') headers['x-xsrf-token'] = options.xsrf;
    }
    Object.assign(headers, options.headers);
    const response = await this.app.inject({
      method: options.method as 'GET',
      url: options.url,
      headers,
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
    for (const c of response.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0)) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return response;
  }

  async signIn(phone: string, name: string): Promise<void> {
    this.jar.clear();
    await this.send({ method: 'GET', url: '/sanctum/csrf-cookie' });
    const response = await this.send({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ phone, name }),
    });
    if (response.statusCode !== 200) {
      throw new Error(`fuzz sign-in answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
    }
  }

  /** Only the anti-forgery cookie, no session: the caller before signing in. */
  async anonymous(): Promise<void> {
    this.jar.clear();
    await this.send({ method: 'GET', url: '/sanctum/csrf-cookie' });
  }
}

/** What one case sends. */
export interface FuzzCase {
  caller: Caller;
  ids: string[];
  query: [string, string][];
  headers: Record<string, string>;
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; payload: string; contentType: string };
  badXsrf: string | null;
  /** For the bearer caller: an Authorization header to send instead of its real token, or null. */
  forgedAuthorization: string | null;
}

function arbitraries(knownIds: string[]) {
  const printable = fc.string({
    // Lone surrogates are units of their own (a high one followed by a low one is a real pair).
    unit: fc.constantFrom(
      ...Array.from('abcXYZ019 -_%.,:;&=?#+"\'/\\{}[]<>éΩ🙂\u0000\n'),
      '\ud800',
      '\udc00',
    ),
    maxLength: 40,
  });
  // Free text: ordinary, or text PostgreSQL cannot store (a NUL, a lone surrogate of either half).
  const text = fc.oneof(
    { arbitrary: printable, weight: 3 },
    { arbitrary: fc.constantFrom(...FUZZ_UNSTORABLE), weight: 1 },
  );
  const id = fc.oneof(
    { arbitrary: fc.constantFrom(...FUZZ_BAD_IDS, ...knownIds, '1', '2147483647'), weight: 3 },
    { arbitrary: fc.integer().map(String), weight: 1 },
    { arbitrary: fc.double().map(String), weight: 1 },
    { arbitrary: fc.bigInt().map(String), weight: 1 },
    { arbitrary: text.filter((s) => s.length > 0), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), weight: 1 },
  );
  const queryValue = fc.oneof(
    text,
    fc.integer().map(String),
    fc.double().map(String),
    fc.bigInt().map(String),
    fc.constantFrom('', 'null', 'true', '[]', '{}', 'a'.repeat(5000), 'c1.zzzz.zz', ...FUZZ_BAD_IDS),
  );
  const query = fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'type',
          'status',
          'parent_id',
          'page',
          'per_page',
          'q',
          'cursor',
          'user_id',
          'parent_id[]',
          'page[a]',
          '__proto__',
          'constructor',
        ),
        text,
      ),
      queryValue,
    ),
    { maxLength: 5 },
  );
  const loose = fc.jsonValue({ maxDepth: 2 });
  const record = fc.record(
    {
      title: fc.oneof(text, loose, fc.constant('t'.repeat(300))),
      type: fc.oneof(fc.constantFrom('campaign', 'task', 'todo'), text, loose),
      status: fc.oneof(fc.constantFrom('pending', 'in_progress', 'completed'), text, loose),
      description: fc.oneof(text, loose),
      parent_id: fc.oneof(fc.integer(), fc.constantFrom(...knownIds.map(Number)), loose),
      assigned_to: fc.oneof(fc.integer({ min: -2, max: 6 }), loose),
      user_id: fc.oneof(fc.integer({ min: -2, max: 6 }), loose),
      due_date: fc.oneof(
        text,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        loose,
      ),
      end_date: fc.oneof(
        text,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
      uuid: fc.oneof(fc.uuid(), text),
      contacts: fc.oneof(fc.array(fc.oneof(text, loose), { maxLength: 6 }), loose),
      phone: fc.oneof(text, fc.constantFrom('+12025550143', '5551234567'), loose),
      name: fc.oneof(text, loose),
      code: fc.oneof(text, loose),
      scopes: fc.oneof(
        fc.subarray(['read', 'write', 'webhooks', 'admin']),
        fc.array(fc.oneof(text, loose), { maxLength: 4 }),
        loose,
      ),
      expires_in_days: fc.oneof(fc.integer({ min: -5, max: 400 }), fc.double(), loose),
      version: loose,
      id: loose,
    },
    { requiredKeys: [] },
  );
  // Shapes a parser or validator may trip on: deep nesting, huge documents, broken text, odd types.
  const raw = fc.oneof(
    fc.integer({ min: 1, max: 20_000 }).map((n) => ({ payload: `${'['.repeat(n)}${']'.repeat(n)}` })),
    fc.integer({ min: 1, max: 20_000 }).map((n) => ({ payload: `${'{"a":'.repeat(n)}1${'}'.repeat(n)}` })),
    fc.integer({ min: 1, max: 2_000 }).map((n) => ({ payload: `${'['.repeat(n)}` })),
    fc.constantFrom(
      { payload: JSON.stringify({ title: 'x'.repeat(1_100_000), type: 'todo' }) },
      { payload: JSON.stringify({ contacts: Array.from({ length: 50_000 }, (_, i) => `+1202555${i}`) }) },
      { payload: JSON.stringify({ title: 'big', type: 'todo', description: 'y'.repeat(900_000) }) },
      { payload: '{"__proto__":{"polluted":true},"title":"x","type":"todo"}' },
      { payload: '{"constructor":{"prototype":{"polluted":true}}}' },
      { payload: '' },
      { payload: 'null' },
      { payload: '\uFEFF{}' },
      { payload: '{"title":"\\ud800","type":"todo"}' },
      { payload: '{"title":1e999,"type":"todo"}' },
    ),
    printable.map((payload) => ({ payload })),
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
    '',
  );
  const body: fc.Arbitrary<FuzzCase['body']> = fc.oneof(
    { arbitrary: fc.constant({ kind: 'none' as const }), weight: 2 },
    {
      arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'json' as const, value })),
      weight: 3,
    },
    { arbitrary: record.map((value) => ({ kind: 'json' as const, value })), weight: 6 },
    {
      arbitrary: fc
        .tuple(raw, contentType)
        .map(([r, type]) => ({ kind: 'raw' as const, payload: r.payload, contentType: type })),
      weight: 2,
    },
  );
  const headers = fc.record(
    {
      'if-match': fc.oneof(
        printable,
        fc.nat().map((n) => `"${n}"`),
        fc.constantFrom('*', 'W/"1"'),
      ),
      'idempotency-key': fc.oneof(printable, fc.constant('k'.repeat(300)), fc.uuid()),
      'if-none-match': fc.oneof(
        printable,
        fc.nat().map((n) => `"${n}"`),
      ),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', '*', 'x'),
    },
    { requiredKeys: [] },
  );
  const caller = fc.constantFrom<Caller>(
    'signed-in',
    'signed-in',
    'signed-in',
    'bad-xsrf',
    'anonymous',
    'bearer',
  );
  const forgedAuthorization = fc.oneof(
    printable.map((t) => `Bearer ${t}`),
    fc
      .string({ unit: fc.constantFrom(...'abcXYZ019-_'), minLength: 43, maxLength: 43 })
      .map((t) => `Bearer opk_${t}`),
    fc.constantFrom(
      'Bearer',
      'Bearer ',
      'Bearer opk_',
      'bearer\topk_x',
      'Basic Zm9vOmJhcg==',
      'Bearer a b c',
    ),
  );
  return fc.record({
    caller,
    ids: fc.array(id, { minLength: 2, maxLength: 2 }),
    query,
    headers,
    body,
    badXsrf: fc.option(printable, { nil: null }),
    forgedAuthorization: fc.option(forgedAuthorization, { nil: null, freq: 4 }),
  });
}

/** The URL a case sends to a route: every `:param` replaced by a generated id, plus the query string. */
function urlFor(route: FuzzRoute, c: FuzzCase): string {
  let n = 0;
  const path = route.url
    .replace(/:[A-Za-z_]+/g, () => encodeComponent(c.ids[n++ % c.ids.length] ?? '1'))
    .replace(/\*$/, () => encodeComponent(c.ids[0] ?? 'x'));
  const search = c.query.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&');
  return search ? `${path}?${search}` : path;
}

const shorten = (text: string, max = 300) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length})` : text;

/**
 * Sends `runsPerRoute` random cases to every route in `app.routeTable` and counts the answers of
 * 500 or more. `seed` makes a run repeatable.
 */
export async function fuzzRoutes(
  app: FastifyInstance,
  options: {
    runsPerRoute: number;
    seed?: number;
    log?: (line: string) => void;
    /** Only the routes it accepts (a resource's own fuzz test); every route by default. */
    only?: (route: FuzzRoute) => boolean;
  },
): Promise<FuzzResult> {
  const seed = options.seed ?? Date.now() % 2_147_483_647;
  const signedIn = new InjectCaller(app);
  await signedIn.signIn(FUZZ_PHONE, 'Fuzzer');
  const anonymous = new InjectCaller(app);
  await anonymous.anonymous();
  // Real ids, so some cases reach an existing item (and its parent, assignee and activity paths).
  const knownIds: string[] = [];
  for (const type of ['campaign', 'task', 'todo'] as const) {
    const response = await signedIn.send({
      method: 'POST',
      url: '/api/items',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        title: `Fuzz ${type}`,
        type,
        ...(knownIds[0] && type !== 'campaign' ? { parent_id: Number(knownIds[0]) } : {}),
      }),
    });
    const created = JSON.parse(response.body) as { id?: number };
    if (response.statusCode === 201 && created.id) knownIds.push(String(created.id));
  }
  // A script's caller: a token with every scope, made by the signed-in caller, and no cookie at all.
  const bearer = new InjectCaller(app);
  const minted = await signedIn.send({
    method: 'POST',
    url: '/api/tokens',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'Fuzz script', scopes: ['read', 'write', 'webhooks'] }),
  });
  const bearerToken = minted.statusCode === 201 ? (JSON.parse(minted.body) as { token: string }).token : null;
  const routes: FuzzRoute[] = app.routeTable
    .map(({ method, url }) => ({ method, url }))
    .filter((route) => options.only?.(route) ?? true);
  const caseArb = arbitraries(knownIds);
  const result: FuzzResult = {
    cases: 0,
    sweepCases: 0,
    perRoute: new Map(),
    serverErrors: 0,
    missingMessage: 0,
    statusCounts: new Map(),
    failures: [],
  };

  /** Sends one request and counts its answer: a 5xx, a throw or a 4xx without a message is a failure. */
  const send = async (
    route: FuzzRoute,
    caller: Caller,
    url: string,
    headers: Record<string, string>,
    payload: string | undefined,
    badXsrf: string | null,
    forgedAuthorization: string | null = null,
  ) => {
    const who = caller === 'anonymous' ? anonymous : caller === 'bearer' ? bearer : signedIn;
    if (caller === 'bearer') bearer.authorization = forgedAuthorization ?? `Bearer ${bearerToken ?? ''}`;
    const sent = `${caller} ${route.method} ${url} ${JSON.stringify(headers)} ${payload === undefined ? '' : shorten(payload)}`;
    const fail = (problem: FuzzFailure['problem'], status: number, answer: string) => {
      if (result.failures.length < MAX_FAILURES_KEPT) {
        result.failures.push({
          caller,
          method: route.method,
          url,
          status,
          sent,
          answer: shorten(answer),
          problem,
        });
      }
    };
    let status: number;
    let text: string;
    try {
      const response = await who.send({
        method: route.method,
        url,
        headers,
        ...(payload === undefined ? {} : { payload }),
        ...(caller === 'bad-xsrf' ? { xsrf: badXsrf } : {}),
      });
      status = response.statusCode;
      text = response.body;
    } catch (error) {
      result.serverErrors++;
      fail('threw', 0, String(error));
      return;
    }
    result.statusCounts.set(status, (result.statusCounts.get(status) ?? 0) + 1);
    if (status >= 500) {
      result.serverErrors++;
      fail('5xx', status, text);
    } else if (status >= 400 && route.method !== 'HEAD') {
      let message: unknown;
      try {
        message = (JSON.parse(text) as { message?: unknown } | null)?.message;
      } catch {
        // CalDAV's answers are WebDAV's XML error bodies, their message in a responsedescription.
        message = /<d:responsedescription>([^<]+)<\/d:responsedescription>/.exec(text)?.[1];
      }
      if (typeof message !== 'string') {
        result.missingMessage++;
        fail('no message', status, text);
      }
    }
    // A sign-in or sign-out that worked changed who the caller is: put it back for the next case.
    const authRoute =
      route.url === '/api/login' || route.url === '/api/logout' || route.url === '/api/login/code';
    if (authRoute && status < 300) {
      if (who === signedIn) await signedIn.signIn(FUZZ_PHONE, 'Fuzzer');
      else await anonymous.anonymous();
    }
  };

  for (const [index, route] of routes.entries()) {
    const cases = fc.sample(caseArb, { numRuns: options.runsPerRoute, seed: seed + index });
    for (const c of cases) {
      // The event stream never ends for a signed-in caller, and inject waits for the end of a
      // response: that route is fuzzed as the callers whom it answers at once.
      const streams = route.url === '/api/events';
      const caller: Caller = streams && c.caller !== 'anonymous' ? 'anonymous' : c.caller;
      const url = urlFor(route, c);
      const sendsBody = c.body.kind !== 'none' && route.method !== 'GET' && route.method !== 'HEAD';
      const headers: Record<string, string> = { ...c.headers };
      let payload: string | undefined;
      if (sendsBody && c.body.kind === 'json') {
        payload = JSON.stringify(c.body.value) ?? 'null';
        headers['content-type'] = 'application/json';
      } else if (sendsBody && c.body.kind === 'raw') {
        payload = c.body.payload;
        if (c.body.contentType) headers['content-type'] = c.body.contentType;
      }
      result.cases++;
      result.perRoute.set(
        `${route.method} ${route.url}`,
        (result.perRoute.get(`${route.method} ${route.url}`) ?? 0) + 1,
      );
      await send(route, caller, url, headers, payload, c.badXsrf, c.forgedAuthorization);
    }
    options.log?.(`  ${route.method} ${route.url}: ${options.runsPerRoute} cases`);
  }

  // The sweep: unstorable text in every body field of every write route (one field at a time, the
  // rest of the body valid), and in every query parameter and path parameter of every read route,
  // as the signed-in caller with a valid token, so each one gets as far as the schema or the database.
  const todo = knownIds[knownIds.length - 1] ?? '1';
  const pathFor = (route: FuzzRoute, id: string) =>
    route.url.replace(/:[A-Za-z_]+/g, () => encodeComponent(id)).replace(/\*$/, () => encodeComponent(id));
  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    // A stream that never ends, and the sign-out (it would end the caller's session each time).
    const caller: Caller = route.url === '/api/events' ? 'anonymous' : 'signed-in';
    if (route.url === '/api/logout') continue;
    if (route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT') {
      for (const field of [...BODY_FIELDS, ...(ROUTE_BODY_FIELDS[key] ?? [])]) {
        for (const bad of SWEEP_UNSTORABLE) {
          const body = {
            ...(VALID_BODIES[key] ?? {}),
            [field]: field === 'contacts' ? ['+12025550100', bad] : bad,
          };
          result.sweepCases++;
          const headers = { 'content-type': 'application/json' };
          await send(route, caller, pathFor(route, todo), headers, JSON.stringify(body), null);
        }
      }
    } else if (route.method === 'GET' || route.method === 'HEAD') {
      for (const bad of SWEEP_UNSTORABLE) {
        for (const name of QUERY_KEYS) {
          result.sweepCases++;
          await send(
            route,
            caller,
            `${pathFor(route, todo)}?${name}=${encodeComponent(bad)}`,
            {},
            undefined,
            null,
          );
        }
        if (route.url.includes(':')) {
          result.sweepCases++;
          await send(route, caller, pathFor(route, bad), {}, undefined, null);
        }
      }
    }
  }
  options.log?.(`  sweep of unstorable text: ${result.sweepCases} cases`);
  return result;
}

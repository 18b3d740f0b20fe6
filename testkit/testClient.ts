import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { type Database, type Executor, rows, sql } from '../src/server/db/client';
import { visibleTo } from '../src/server/items/queries';
import { decodeCursor } from '../src/server/sync/cursor';
import { type Item, isTombstone, type SyncChange, type SyncPage, type UserSummary } from '../src/shared/item';
import type { ItemCreateInput } from '../src/shared/schemas';

export interface TestResponse<T = unknown> {
  status: number;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: T;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface RequestOptions {
  method?: string;
  url: string;
  /** A JSON value to send; objects, arrays, strings and null are all sent as JSON. */
  body?: unknown;
  /** Raw text to send instead of `body` (for malformed JSON). */
  payload?: string;
  headers?: Record<string, string>;
  /** The anti-forgery header: echoed from the cookie by default, `false` omits it, a string sends it. */
  xsrf?: boolean | string;
}

interface SetCookie {
  name: string;
  value: string;
  expires?: Date;
  maxAge?: number;
}

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * A browser-like client for `app.inject`: it keeps a cookie jar, fetches the anti-forgery cookie and
 * echoes XSRF-TOKEN as X-XSRF-TOKEN on state-changing requests, as the real client does.
 */
export class TestClient {
  readonly jar = new Map<string, string>();
  user: UserSummary | null = null;

  constructor(readonly app: FastifyInstance) {}

  /** The Cookie header this client sends. */
  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request<T = unknown>(options: RequestOptions): Promise<TestResponse<T>> {
    const method = (options.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.jar.size > 0) headers.cookie = this.cookieHeader();
    const token = this.jar.get('XSRF-TOKEN');
    if (STATE_CHANGING.has(method) && options.xsrf !== false) {
      if (typeof options.xsrf === 'string') headers['x-xsrf-token'] = options.xsrf;
      else if (token) headers['x-xsrf-token'] = decodeURIComponent(token);
    }
    let payload: string | undefined;
    if (options.payload !== undefined) payload = options.payload;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, options.headers);

    const response = await this.app.inject({
      method: method as 'GET',
      url: options.url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    for (const cookie of response.cookies as SetCookie[]) this.store(cookie);
    let body: unknown;
    const type = String(response.headers['content-type'] ?? '');
    if (type.includes('application/json') && response.body.length > 0) body = JSON.parse(response.body);
    return { status: response.statusCode, body: body as T, text: response.body, headers: response.headers };
  }

  private store(cookie: SetCookie): void {
    const expired =
      cookie.value === '' ||
      (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now()) ||
      (cookie.maxAge !== undefined && cookie.maxAge <= 0);
    if (expired) this.jar.delete(cookie.name);
    else this.jar.set(cookie.name, cookie.value);
  }

  get<T = unknown>(url: string, headers?: Record<string, string>) {
    return this.request<T>({ method: 'GET', url, ...(headers ? { headers } : {}) });
  }

  post<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>({ method: 'POST', url, body, ...(headers ? { headers } : {}) });
  }

  patch<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>({ method: 'PATCH', url, body, ...(headers ? { headers } : {}) });
  }

  delete<T = unknown>(url: string, headers?: Record<string, string>) {
    return this.request<T>({ method: 'DELETE', url, ...(headers ? { headers } : {}) });
  }

  /** GET /sanctum/csrf-cookie, as the client does before signing in and out. */
  async csrf(): Promise<TestResponse> {
    return this.get('/sanctum/csrf-cookie');
  }

  /** Fetches the anti-forgery cookie and signs in; fails the test unless the server says 200. */
  async login(phone: string, name: string): Promise<UserSummary> {
    await this.csrf();
    const response = await this.post<{ user: UserSummary }>('/api/login', { phone, name });
    expect(response.status, response.text).toBe(200);
    this.user = response.body.user;
    return response.body.user;
  }

  /** Creates an item and fails the test unless the server answers 201. */
  async create(input: ItemCreateInput, headers?: Record<string, string>): Promise<Item> {
    const response = await this.post<Item>('/api/items', input, headers);
    expect(response.status, response.text).toBe(201);
    return response.body;
  }

  /** Patches an item and fails the test unless the server answers 200. */
  async update(id: number, patch: Record<string, unknown>): Promise<Item> {
    const response = await this.patch<Item>(`/api/items/${id}`, patch);
    expect(response.status, response.text).toBe(200);
    return response.body;
  }

  /** The item as the caller sees it now, failing unless it is visible. */
  async item(id: number): Promise<Item> {
    const response = await this.get<Item>(`/api/items/${id}`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  }
}

let phoneCounter = 0;

/** A distinct possible US phone number for each call, so suites never collide on one database. */
export function uniquePhone(): string {
  phoneCounter += 1;
  const suffix = String((process.pid * 7919 + phoneCounter) % 10_000_000).padStart(7, '0');
  return `+1202${suffix}`;
}

/** A new client signed in as a new user. */
export async function signedIn(app: FastifyInstance, name = 'Test User'): Promise<TestClient> {
  const client = new TestClient(app);
  await client.login(uniquePhone(), name);
  return client;
}

/** Makes every pair of these signed-in users mutual contacts, so they may assign work to each other. */
export async function makeMutual(...clients: TestClient[]): Promise<void> {
  for (const client of clients) {
    const phones = clients.filter((c) => c !== client).map((c) => c.user!.phone);
    const response = await client.post('/api/contacts/sync', { contacts: phones });
    expect(response.status, response.text).toBe(200);
  }
}

/**
 * Pulls /api/sync from `cursor` until it has caught up with every write committed so far, keeping
 * the newest version of each item. On PostgreSQL the horizon is cluster-wide, so a transaction open
 * elsewhere (another test's database) may hold a change back for one pull: this pulls again until
 * the cursor is past the newest change this user can learn of, as a client would on its next sync.
 * Only those: a change nobody tells this user of (an item taken away, then edited) leaves a drained
 * pull answered from the read cache, its cursor where it was, rightly so.
 */
export async function pullAll(
  client: TestClient,
  database: Database,
  cursor = '',
): Promise<{ items: SyncChange[]; cursor: string; pulls: number }> {
  const userId = client.user?.id ?? 0;
  const [{ newest } = { newest: '0' }] = await rows<{ newest: string | null }>(
    database.db,
    sql`SELECT GREATEST(
        (SELECT max(i.change_xid) FROM items i WHERE ${visibleTo(userId)}),
        (SELECT max(c.change_xid) FROM comments c JOIN items i ON i.id = c.item_id
          WHERE i.deleted_at IS NULL AND ${visibleTo(userId)}),
        (SELECT max(change_xid) FROM item_revocations WHERE user_id = ${userId}),
        (SELECT max(change_xid) FROM campaign_members WHERE user_id = ${userId}),
        0)::text AS newest`,
  );
  const target = BigInt(newest ?? '0');
  const seen = new Map<number, SyncChange>();
  let pulls = 0;
  for (;;) {
    const page = await client.get<SyncPage>(`/api/sync?cursor=${encodeURIComponent(cursor)}`);
    expect(page.status, page.text).toBe(200);
    pulls += 1;
    for (const item of page.body.items) {
      const known = seen.get(item.id);
      // Pages come in change order, so a tombstone is the item's latest state when it arrives.
      if (!known || isTombstone(known) || isTombstone(item) || known.version <= item.version)
        seen.set(item.id, item);
    }
    cursor = page.body.cursor;
    if (page.body.has_more) continue;
    if ((decodeCursor(cursor)?.xid ?? 0n) > target) break;
    expect(pulls, 'the sync cursor never caught up with the last write').toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { items: [...seen.values()], cursor, pulls };
}

/**
 * Writes straight to the database for set-ups the API cannot make (shared timestamps, bulk rows),
 * then announces the change as the app's own write path does, so caches and event streams hear of it.
 */
export async function writeDirectly(
  app: FastifyInstance,
  userIds: number[],
  write: (tx: Executor) => Promise<unknown>,
): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    await write(tx);
    await app.changes.announce(tx, userIds);
  });
  app.changes.committed(userIds);
}

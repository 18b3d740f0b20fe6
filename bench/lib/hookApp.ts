/**
 * Shared by the issue 51 benches: the real app in-process with loopback webhook URLs allowed (as the
 * webhook tests do) and rate limits off, and a JSON request on it through `app.inject`.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import type { Database } from '../../src/server/db/client';
import { benchConfig } from './benchConfig';
import type { InjectSession } from './injectSession';

/** The app on `database` with loopback webhooks and no rate limits; ready to inject or listen. */
export async function hookApp(database: Database): Promise<FastifyInstance> {
  const config = benchConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
  const app = await buildApp({ database, config: { ...config, clientDir: null } });
  await app.ready();
  return app;
}

/** One request as `who` (cookie session) or with `headers` instead; throws on a 4xx or 5xx. */
export async function injectJson<T>(
  app: FastifyInstance,
  who: InjectSession | { headers: Record<string, string> },
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
): Promise<T> {
  const headers = 'headers' in who ? who.headers : { cookie: who.cookie, 'x-xsrf-token': who.xsrf };
  const response = await app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (response.statusCode >= 400)
    throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  return response.json() as T;
}

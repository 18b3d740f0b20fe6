import type { FastifyInstance } from 'fastify';

/** A signed-in person on an in-process app (`app.inject`): the cookie header, anti-forgery token and id. */
export interface InjectSession {
  cookie: string;
  xsrf: string;
  id: number;
}

/** Signs `phone` in on `app` as the browser does: the anti-forgery cookie first, then the sign-in. */
export async function injectSignIn(
  app: FastifyInstance,
  phone: string,
  name: string,
): Promise<InjectSession> {
  const jar = new Map<string, string>();
  const keep = (cookies: { name: string; value: string }[]) => {
    for (const c of cookies) jar.set(c.name, c.value);
  };
  keep((await app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' })).cookies);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const xsrf = () => decodeURIComponent(jar.get('XSRF-TOKEN') ?? '');
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { cookie: cookie(), 'x-xsrf-token': xsrf() },
    payload: { phone, name },
  });
  if (login.statusCode !== 200) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  keep(login.cookies);
  const id = (login.json() as { user: { id: number } }).user.id;
  return { cookie: cookie(), xsrf: xsrf(), id };
}

import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Provider from 'oidc-provider';
import { type Certificate, selfSignedCertificate } from './selfSignedCertificate';

/** What the test provider says about a person it signs in. */
export interface TestAccount {
  name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
}

/**
 * A real OpenID provider (oidc-provider, a certified implementation) over https on a certificate made
 * for this run, for tests of single sign-on. There is no login form: whoever the test names with
 * `signInAs` is signed in (and consents) at once, so a browser or a redirect-following client goes
 * straight through. `tamper.audience` makes the token endpoint hand out ID tokens for another client,
 * signed with the provider's own key (the relying party must refuse them on `aud` alone).
 */
export interface TestOidcProvider {
  issuer: string;
  /** The certificate's PEM file: the relying party trusts it through NODE_EXTRA_CA_CERTS. */
  caFile: string;
  ca: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestAccount>;
  signInAs(accountId: string): void;
  tamper: { audience: string | null };
  close(): Promise<void>;
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** Signs `payload` as an RS256 JWT with `key` under `kid`. */
function signJwt(payload: Record<string, unknown>, key: KeyObject, kid: string): string {
  const head = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.${base64url(JSON.stringify(payload))}`;
  return `${head}.${base64url(sign('sha256', Buffer.from(head), key))}`;
}

/** How the browser suite runs the provider (testkit/oidcProviderServer.ts); tests leave them out. */
export interface ProviderOptions {
  /** A fixed port (the app server is told the issuer before the provider starts); else any free one. */
  port?: number;
  /** A certificate made beforehand (the app server trusts its file from its start); else a new one. */
  certificate?: Certificate;
  clientSecret?: string;
  /**
   * A sign-in page at the provider (a username, 'Sign in' and 'Cancel') instead of `signInAs`, for a
   * browser in another process than the test; consent is then given at once, as for a first-party app.
   */
  loginPage?: boolean;
}

/** Starts the provider; `redirectUris` are the relying party's callbacks, registered for its client. */
export async function startOidcProvider(
  redirectUris: string[],
  options: ProviderOptions = {},
): Promise<TestOidcProvider> {
  const dir = mkdtempSync(path.join(tmpdir(), 'outpost-oidc-'));
  const { key, cert, certFile } = options.certificate ?? selfSignedCertificate(dir);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key';
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const signingKey = createPrivateKey({ key: jwk, format: 'jwk' });
  const accounts = new Map<string, TestAccount>();
  let nextAccount = 'nobody';
  const tamper: { audience: string | null } = { audience: null };
  const clientId = 'outpost';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');

  let provider: InstanceType<typeof Provider> | null = null;
  const server = https.createServer({ key, cert }, (req, res) => {
    if (!provider) {
      res.statusCode = 503;
      res.end();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      const answer = options.loginPage
        ? loginPageInteraction(provider, req, res, accounts)
        : finishInteraction(provider, req, res, nextAccount);
      void answer.catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const issuer = `https://localhost:${port}`;

  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username'],
      email: ['email', 'email_verified'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Short lives, said outright (the provider otherwise prints a notice for each default).
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AccessToken: 600,
      IdToken: 600,
    },
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...account }) };
    },
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) => {
    console.error('test OpenID provider:', error);
  });
  // The forged answer: a real ID token re-signed with the provider's key for another audience.
  provider.use(async (ctx: { path: string; body: unknown }, next: () => Promise<void>) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path !== '/token' || !tamper.audience || !body?.id_token) return;
    const payload = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString('utf8'));
    ctx.body = {
      ...body,
      id_token: signJwt({ ...payload, aud: tamper.audience, azp: tamper.audience }, signingKey, kid),
    };
  });

  return {
    issuer,
    caFile: certFile,
    ca: cert,
    clientId,
    clientSecret,
    accounts,
    signInAs: (accountId) => {
      nextAccount = accountId;
    },
    tamper,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/** Signs in the chosen account and grants what the client asked for, with no page in between. */
async function finishInteraction(
  provider: InstanceType<typeof Provider>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  accountId: string,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  await grantConsent(provider, req, res, details);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's own sign-in page: a labelled username field, 'Sign in' and 'Cancel'. */
function loginPageHtml(action: string, problem: string | null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Test ID: sign in</title></head>
<body style="font-family: sans-serif; max-width: 24rem; margin: 4rem auto">
<main><h1>Test ID</h1>
<form method="post" action="${escapeHtml(action)}">
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<label for="login">Username</label>
<input id="login" name="login" autocomplete="username" autofocus>
<button type="submit" name="action" value="login">Sign in</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form></main></body></html>`;
}

async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
}

/**
 * The interaction as a person in a browser meets it: GET shows the sign-in page, its POST signs in a
 * known account (an unknown one sees the page again with a sentence) or cancels, which the provider
 * answers with `access_denied` at the relying party's callback.
 */
async function loginPageInteraction(
  provider: InstanceType<typeof Provider>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  accounts: Map<string, TestAccount>,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name !== 'login') return grantConsent(provider, req, res, details);
  const page = (problem: string | null) => {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(loginPageHtml(`/interaction/${details.uid}`, problem));
  };
  if (req.method !== 'POST') return page(null);
  const form = await formBody(req);
  if (form.get('action') === 'cancel') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The person cancelled the sign-in.' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const accountId = form.get('login')?.trim() ?? '';
  if (!accounts.has(accountId)) return page('No such account.');
  await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
}

/** Grants what the client asked for (the consent prompt), as for a first-party app. */
async function grantConsent(
  provider: InstanceType<typeof Provider>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  details: Awaited<ReturnType<InstanceType<typeof Provider>['interactionDetails']>>,
): Promise<void> {
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** A cookie-keeping client that follows redirects across http and https, as a browser would. */
export class RedirectWalker {
  private readonly jar = new Map<string, Map<string, string>>();
  constructor(private readonly ca: string) {}

  /** The cookie `name` this client holds for `origin`. */
  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(new URL(origin).host)?.get(name);
  }

  /** One GET: its status, Location and body. */
  async get(url: string): Promise<{ status: number; location: string | null; body: string }> {
    const target = new URL(url);
    const cookies = this.jar.get(target.host);
    const headers: Record<string, string> = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' };
    if (cookies && cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const requester = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = requester.get(target, { headers, ca: this.ca }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          for (const line of response.headers['set-cookie'] ?? []) {
            const [pair = ''] = line.split(';');
            const eq = pair.indexOf('=');
            if (eq <= 0) continue;
            const jar = this.jar.get(target.host) ?? new Map<string, string>();
            this.jar.set(target.host, jar);
            const name = pair.slice(0, eq).trim();
            const value = pair.slice(eq + 1).trim();
            if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
            else jar.set(name, value);
          }
          const location = response.headers.location ? new URL(response.headers.location, target).href : null;
          resolve({ status: response.statusCode ?? 0, location, body });
        });
      });
      request.on('error', reject);
    });
  }

  /** Follows redirects from `url` until `stop` says so or a page answers; every URL on the way. */
  async walk(url: string, stop: (next: URL) => boolean = () => false): Promise<string[]> {
    const visited = [url];
    let current = url;
    for (let hop = 0; hop < 15; hop++) {
      const answer = await this.get(current);
      if (answer.status < 300 || answer.status >= 400 || !answer.location) return visited;
      visited.push(answer.location);
      if (stop(new URL(answer.location))) return visited;
      current = answer.location;
    }
    throw new Error(`too many redirects: ${visited.join(' → ')}`);
  }
}

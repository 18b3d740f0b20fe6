import { describe, expect, it } from 'vitest';
import type { UserSummary } from '../../shared/item';
import { type ApiClient, ApiError, createApiClient } from '../data/net/apiClient';
import { createAuthStore, unauthorizedHooks } from './authStore';

const sam: UserSummary = { id: 7, name: 'Sam', phone: '+15555550107', created_at: '', updated_at: '' };

/** Resolves when `release` is called: the test decides which answer comes back first. */
function held<T>() {
  let release: (settle: () => T) => void = () => {};
  const promise = new Promise<T>((resolve, reject) => {
    release = (settle) => {
      try {
        resolve(settle());
      } catch (error) {
        reject(error);
      }
    };
  });
  return { promise, release };
}

function fakeApi(
  me: Promise<{ data: { user: UserSummary } }>,
  login: Promise<{ data: { user: UserSummary } }>,
) {
  return {
    csrfCookie: async () => undefined,
    get: () => me,
    post: () => login,
    postWithCsrf: () => login,
  } as unknown as ApiClient;
}

describe('the session check beside a sign-in', () => {
  it('a check sent with the visitor’s cookie while signing in does not sign the new account out', async () => {
    const me = held<{ data: { user: UserSummary } }>();
    const login = held<{ data: { user: UserSummary } }>();
    const auth = createAuthStore({ api: () => fakeApi(me.promise, login.promise) });
    const signingIn = auth.getState().login(sam.phone, sam.name, '123456');
    const checking = auth.getState().checkSession();
    login.release(() => ({ data: { user: sam } }));
    await signingIn;
    // The visitor's session was retired by the sign-in: its check answers 401, after the sign-in.
    me.release(() => {
      throw new ApiError('Unauthenticated.', 401);
    });
    await checking;
    expect(auth.getState()).toMatchObject({ isAuthenticated: true, user: { id: sam.id } });
  });

  it('a check that starts and answers with no sign-in under way still decides', async () => {
    const me = held<{ data: { user: UserSummary } }>();
    const auth = createAuthStore({ api: () => fakeApi(me.promise, new Promise(() => {})) });
    const checking = auth.getState().checkSession();
    me.release(() => {
      throw new ApiError('Unauthenticated.', 401);
    });
    await checking;
    expect(auth.getState()).toMatchObject({ isAuthenticated: false, restored: true });
    const again = held<{ data: { user: UserSummary } }>();
    const signedIn = createAuthStore({ api: () => fakeApi(again.promise, new Promise(() => {})) });
    const check = signedIn.getState().checkSession();
    again.release(() => ({ data: { user: sam } }));
    await check;
    expect(signedIn.getState()).toMatchObject({ isAuthenticated: true, user: { id: sam.id } });
  });
});

describe('a 401 beside a sign-in, through the API client', () => {
  /** The API client as the app wires it: its 401s go to the auth store with the epoch they left in. */
  function wired(fetch: (url: string, init?: RequestInit) => Promise<Response>) {
    const remembered: (UserSummary | null)[] = [];
    const auth = createAuthStore({
      api: () => api,
      remember: async (user) => {
        remembered.push(user);
      },
    });
    const api = createApiClient({
      fetch,
      xsrfToken: () => 'token',
      ...unauthorizedHooks(() => auth),
    });
    return { auth, remembered };
  }
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  it('a check that leaves before a sign-in and answers 401 after it leaves the new account signed in and remembered', async () => {
    const me = held<Response>();
    const { auth, remembered } = wired(async (url) => {
      if (url.endsWith('/api/me')) return me.promise;
      if (url.endsWith('/api/login')) return json(200, { user: sam });
      return new Response(null, { status: 204 });
    });
    const checking = auth.getState().checkSession();
    await auth.getState().login(sam.phone, sam.name, '123456');
    me.release(() => json(401, { message: 'Unauthenticated.' }));
    await checking;
    expect(auth.getState()).toMatchObject({ isAuthenticated: true, user: { id: sam.id } });
    expect(remembered).toEqual([sam]);
  });

  it('a 401 for a request that left after the sign-in still signs the device out', async () => {
    let signedIn = true;
    const { auth, remembered } = wired(async (url) => {
      if (url.endsWith('/api/login')) return json(200, { user: sam });
      if (url.endsWith('/api/me'))
        return signedIn ? json(200, { user: sam }) : json(401, { message: 'Unauthenticated.' });
      return new Response(null, { status: 204 });
    });
    await auth.getState().login(sam.phone, sam.name, '123456');
    // The session ends on the server (expired, or logged out elsewhere): the next answer is a 401.
    signedIn = false;
    await auth.getState().checkSession();
    expect(auth.getState()).toMatchObject({ isAuthenticated: false, user: { id: 0 } });
    expect(remembered.at(-1)).toBeNull();
  });
});

describe('logout', () => {
  async function signedInStore() {
    const posts: [string, unknown][] = [];
    const api = {
      csrfCookie: async () => undefined,
      get: async () => ({ data: { user: sam } }),
      post: async (path: string, body?: unknown) => {
        posts.push([path, body]);
        return { data: { user: sam } };
      },
      postWithCsrf: async () => ({ data: { user: sam } }),
    } as unknown as ApiClient;
    const auth = createAuthStore({ api: () => api });
    await auth.getState().login(sam.phone, sam.name, '123456');
    posts.length = 0;
    return { auth, posts };
  }

  it('ends only this device by default', async () => {
    const { auth, posts } = await signedInStore();
    await auth.getState().logout();
    expect(posts).toEqual([['/logout', undefined]]);
    expect(auth.getState().isAuthenticated).toBe(false);
  });

  it('forgets the account on the device before the screen says guest', async () => {
    const remembered: (UserSummary | null)[] = [];
    const rememberedWhenGuest: (UserSummary | null)[][] = [];
    let forgotten = false;
    const forgottenWhenGuest: boolean[] = [];
    const api = {
      csrfCookie: async () => undefined,
      post: async () => ({ data: { user: sam } }),
      postWithCsrf: async () => ({ data: { user: sam } }),
    } as unknown as ApiClient;
    const auth = createAuthStore({
      api: () => api,
      remember: async (user) => {
        await new Promise((done) => setTimeout(done, 5));
        remembered.push(user);
      },
      onLogout: async () => {
        await new Promise((done) => setTimeout(done, 5));
        forgotten = true;
      },
    });
    await auth.getState().login(sam.phone, sam.name, '123456');
    auth.subscribe((state, prev) => {
      if (prev.isAuthenticated && !state.isAuthenticated) {
        forgottenWhenGuest.push(forgotten);
        rememberedWhenGuest.push([...remembered]);
      }
    });
    await auth.getState().logout();
    expect(forgottenWhenGuest).toEqual([true]);
    expect(rememberedWhenGuest).toEqual([[sam, null]]);
  });

  it('asks the server to end every device with {everywhere: true}', async () => {
    const { auth, posts } = await signedInStore();
    await auth.getState().logout({ everywhere: true });
    expect(posts).toEqual([['/logout', { everywhere: true }]]);
    expect(auth.getState().isAuthenticated).toBe(false);
  });
});

describe('signing in with a passkey', () => {
  const noServer = { get: () => Promise.reject(new Error('unused')) } as unknown as ApiClient;

  it('runs the same steps as the phone: signed in, remembered, and a guest’s items moved up', async () => {
    const remembered: (UserSummary | null)[] = [];
    const logins: [UserSummary, boolean][] = [];
    const auth = createAuthStore({
      api: () => noServer,
      passkeySignIn: async () => sam,
      remember: async (user) => {
        remembered.push(user);
      },
      onLogin: async (user, wasGuest) => {
        logins.push([user, wasGuest]);
      },
    });
    expect(await auth.getState().loginWithPasskey()).toEqual(sam);
    expect(auth.getState()).toMatchObject({ user: sam, isAuthenticated: true, isAnonymous: false });
    expect(remembered).toEqual([sam]);
    expect(logins).toEqual([[sam, true]]);
  });

  it('a refused passkey leaves the guest a guest, with the server’s error for the screen', async () => {
    const refused = new ApiError('Sign-in with this passkey did not work.', 401);
    let logins = 0;
    const auth = createAuthStore({
      api: () => noServer,
      passkeySignIn: () => Promise.reject(refused),
      onLogin: async () => {
        logins++;
      },
    });
    await expect(auth.getState().loginWithPasskey()).rejects.toBe(refused);
    expect(auth.getState().isAuthenticated).toBe(false);
    expect(logins).toBe(0);
  });

  it('a 401 that answers the passkey sign-in itself does not act as a session ending', async () => {
    let unauthorizedSeen = 0;
    const auth = createAuthStore({
      api: () => noServer,
      passkeySignIn: async () => {
        // The API client tells the store about a 401 while the sign-in is under way.
        auth.getState().unauthorized(auth.getState().epoch() - 1);
        unauthorizedSeen++;
        throw new ApiError('refused', 401);
      },
    });
    await expect(auth.getState().loginWithPasskey()).rejects.toThrow('refused');
    expect(unauthorizedSeen).toBe(1);
    expect(auth.getState().restored).toBe(false);
  });
});

describe('coming back from single sign-on', () => {
  it('moves a guest’s items up even when the page load already found the session', async () => {
    const logins: [UserSummary, boolean][] = [];
    const server = { get: async () => ({ data: { user: sam } }) } as unknown as ApiClient;
    const auth = createAuthStore({
      api: () => server,
      onLogin: async (user, wasGuest) => {
        logins.push([user, wasGuest]);
      },
    });
    await auth.getState().checkSession();
    expect(auth.getState().isAuthenticated).toBe(true);
    expect(await auth.getState().finishOidcSignIn(true)).toEqual(sam);
    expect(logins).toEqual([[sam, true]]);
  });
});

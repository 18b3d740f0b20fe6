import { describe, expect, it } from 'vitest';
import type { UserSummary } from '../../shared/item';
import { type ApiClient, ApiError } from '../data/net/apiClient';
import { createAuthStore } from './authStore';

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

/** The network's part of the client: the API client (composed by client.ts, ARCHITECTURE §6). */
import { type AuthStore, unauthorizedHooks } from '../../stores/authStore';
import { type ApiClient, createApiClient, type FetchLike } from './apiClient';

/** The API client over the fetch that tells the badge whether the server answers (sync/part.ts). */
export const apiPart = {
  name: 'api',
  needs: ['baseUrl', 'trackedFetch', 'xsrfToken'],
  // A 401 goes to the auth store, which is made after this client (it calls it).
  later: ['auth'],
  create({
    baseUrl,
    trackedFetch,
    xsrfToken,
    auth,
  }: {
    baseUrl: string;
    trackedFetch: FetchLike;
    xsrfToken: (() => string | null) | undefined;
    auth: () => AuthStore;
  }): ApiClient {
    return createApiClient({
      baseUrl,
      fetch: trackedFetch,
      ...(xsrfToken ? { xsrfToken } : {}),
      // A 401 signs the device out only if it answers the session of now, not one a sign-in replaced.
      ...unauthorizedHooks(auth),
    });
  },
} as const;

export const API_BASE = '/api';
export const NETWORK_ERROR = 'NETWORK_ERROR';

/** An HTTP failure: `status` 0 and code NETWORK_ERROR when no response arrived. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly data: unknown;
  /** Seconds from a 429's (or 503's) Retry-After header; null without one. */
  readonly retryAfter: number | null;
  constructor(
    message: string,
    status: number,
    data: unknown = null,
    code: string | null = null,
    retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** Retry-After as seconds: either delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** True when the request never got an answer: treated as offline. */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === NETWORK_ERROR || error.status === 0;
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === NETWORK_ERROR;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
  /** Origin the app talks to ('' in the browser: same origin). */
  baseUrl?: string;
  fetch?: FetchLike;
  /** The XSRF-TOKEN cookie's value; the browser reads document.cookie. */
  xsrfToken?: () => string | null;
  /** The auth store's epoch (authStore.ts), read as each request leaves. */
  authEpoch?: () => number;
  /**
   * Any 401, told the epoch its request left at: the auth store decides whether that answer still
   * speaks for the session (a sign-in may have replaced it meanwhile). The error is re-thrown after.
   */
  onUnauthorized?: (sentAt: number | undefined) => void | Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

/** XSRF-TOKEN from document.cookie, URL-decoded; null outside a browser. */
export function browserXsrfToken(): string | null {
  if (typeof document === 'undefined') return null;
  const match = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type ApiClient = ReturnType<typeof createApiClient>;

/** The HTTP client: cookies, JSON, the XSRF header, NETWORK_ERROR for no answer, 401 → guest. */
export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const xsrf = options.xsrfToken ?? browserXsrfToken;

  async function request<T>(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    if (STATE_CHANGING.has(method)) {
      const token = xsrf();
      if (token) headers['X-XSRF-TOKEN'] = token;
    }
    const sentAt = options.authEpoch?.();
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        credentials: 'include',
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: opts.signal,
      });
    } catch (error) {
      throw new ApiError(error instanceof Error ? error.message : 'Network error', 0, null, NETWORK_ERROR);
    }
    let data: unknown = null;
    const text = await response.text().catch(() => {
      throw new ApiError('The connection dropped while reading the answer.', 0, null, NETWORK_ERROR);
    });
    if (text !== '') {
      try {
        data = JSON.parse(text);
      } catch {
        data = text;
      }
    }
    if (!response.ok) {
      const message =
        typeof data === 'object' &&
        data !== null &&
        typeof (data as { message?: unknown }).message === 'string'
          ? (data as { message: string }).message
          : `Request failed with status ${response.status}`;
      const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
      const error = new ApiError(message, response.status, data, null, retryAfter);
      if (response.status === 401 && options.onUnauthorized) await options.onUnauthorized(sentAt);
      throw error;
    }
    return { status: response.status, data: data as T, headers: response.headers };
  }

  const csrfCookie = () => request<null>('GET', '/sanctum/csrf-cookie');
  const ensureCsrfCookie = async (): Promise<void> => {
    if (!xsrf()) await csrfCookie();
  };

  return {
    request,
    get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', `${API_BASE}${path}`, opts),
    post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('POST', `${API_BASE}${path}`, { ...opts, body }),
    patch: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PATCH', `${API_BASE}${path}`, { ...opts, body }),
    delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', `${API_BASE}${path}`, opts),
    /** Fetches the anti-forgery cookie from the host root (before login and logout). */
    csrfCookie,
    /** Fetches the anti-forgery cookie only when the page has none (a sign-in form, as it opens). */
    ensureCsrfCookie,
    /**
     * A POST that starts a session (sign-in, a sign-in code): the anti-forgery cookie is fetched first
     * only when the page has none, so the click waits for one request, not two. A kept token whose
     * session has since ended gets 419: a fresh one is fetched and the POST sent once more. With the
     * cookie there the POST leaves in the caller's own task: the sign-in starts loading thirty modules
     * right after it, which would otherwise take the browser's six connections ahead of it.
     */
    postWithCsrf: async <T>(path: string, body?: unknown): Promise<ApiResponse<T>> => {
      const post = () => request<T>('POST', `${API_BASE}${path}`, { body });
      const answer = xsrf() ? post() : csrfCookie().then(post);
      try {
        return await answer;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 419)) throw error;
        await csrfCookie();
        return post();
      }
    },
  };
}

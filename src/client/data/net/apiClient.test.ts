import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type FetchLike } from './apiClient';

/** A fetch that records each request as 'METHOD path' and answers from `answers` in turn (200 {} after them). */
function recordingFetch(answers: { status: number; body: unknown }[] = []) {
  const sent: string[] = [];
  const fetch: FetchLike = (input, init) => {
    sent.push(`${init?.method ?? 'GET'} ${input}`);
    const answer = answers.shift() ?? { status: 200, body: {} };
    return Promise.resolve(new Response(JSON.stringify(answer.body), { status: answer.status }));
  };
  return { sent, fetch };
}

describe('postWithCsrf', () => {
  it("sends the POST in the caller's own task when the anti-forgery cookie is there, so modules loaded after it queue behind it", async () => {
    const { sent, fetch } = recordingFetch([{ status: 200, body: { user: { id: 1 } } }]);
    const api = createApiClient({ fetch, xsrfToken: () => 'token' });
    const answer = api.postWithCsrf<{ user: { id: number } }>('/login', { phone: '1', name: 'A' });
    // Nothing awaited yet: the request has already left.
    expect(sent).toEqual(['POST /api/login']);
    expect((await answer).data).toEqual({ user: { id: 1 } });
  });

  it('fetches the anti-forgery cookie first when the page has none, then sends the POST', async () => {
    const { sent, fetch } = recordingFetch();
    let token: string | null = null;
    const api = createApiClient({
      fetch: (input, init) => {
        if (String(input).endsWith('/sanctum/csrf-cookie')) token = 'fresh';
        return fetch(input, init);
      },
      xsrfToken: () => token,
    });
    await api.postWithCsrf('/login', {});
    expect(sent).toEqual(['GET /sanctum/csrf-cookie', 'POST /api/login']);
  });

  it("answers 419 with a fresh cookie and the POST once more; another error is the caller's", async () => {
    const stale = recordingFetch([
      { status: 419, body: { message: 'CSRF token mismatch.' } },
      { status: 200, body: null },
      { status: 200, body: { ok: true } },
    ]);
    const api = createApiClient({ fetch: stale.fetch, xsrfToken: () => 'kept' });
    expect((await api.postWithCsrf('/login', {})).data).toEqual({ ok: true });
    expect(stale.sent).toEqual(['POST /api/login', 'GET /sanctum/csrf-cookie', 'POST /api/login']);

    const refused = recordingFetch([{ status: 422, body: { message: 'The phone is not valid.' } }]);
    const other = createApiClient({ fetch: refused.fetch, xsrfToken: () => 'kept' });
    const error = await other.postWithCsrf('/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'The phone is not valid.' });
    expect(refused.sent).toEqual(['POST /api/login']);
  });
});

import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { VISITOR_XSRF_PREFIX } from '../../shared/visitorXsrf';
import { createOutpostClient } from './client';
import { manualConnectivity } from './net/connectivity';

/** Starts a fresh device whose anti-forgery cookie is `xsrf`; answers the paths it asked the server. */
async function startWith(xsrf: string | null): Promise<{ asked: string[]; guest: boolean }> {
  const asked: string[] = [];
  const client = createOutpostClient({
    dbName: `visitor-check-${Math.random()}`,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    connectivity: manualConnectivity(true),
    xsrfToken: () => xsrf,
    fetch: async (url) => {
      asked.push(new URL(String(url), 'http://x').pathname);
      return new Response(JSON.stringify({ message: 'Unauthenticated.' }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      });
    },
    locks: null,
  });
  client.screenShown();
  const stop = await client.start();
  const guest = !client.auth.getState().isAuthenticated;
  stop();
  client.close();
  return { asked, guest };
}

describe('the session check at start', () => {
  it("asks nothing for a visitor's anti-forgery cookie (the tutorial's code request made it): the device is a guest", async () => {
    const { asked, guest } = await startWith(`${VISITOR_XSRF_PREFIX}bWFjLW9mLWEtdmlzaXRvcg`);
    expect(asked).not.toContain('/api/me');
    expect(guest).toBe(true);
  });

  it('asks GET /api/me for a signed-in anti-forgery cookie', async () => {
    const { asked, guest } = await startWith('c2lnbmVkLWluLXRva2Vu');
    expect(asked).toContain('/api/me');
    expect(guest).toBe(true);
  });
});

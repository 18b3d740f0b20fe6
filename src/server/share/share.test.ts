import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testEngines } from '../../../testkit/server';
import { SHARE_AGAIN_LOCATION } from './routes';

describe.each(testEngines())('the share target before a service worker runs, on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server?.close());

  const share = (form: FormData) =>
    fetch(`${server.url}/share`, { method: 'POST', body: form, redirect: 'manual' });

  it('answers a shared form with 303 to the app, which asks to share again; no session needed', async () => {
    const form = new FormData();
    form.set('title', 'Broken gate');
    form.append('files', new File(['jpeg bytes'], 'gate.jpg', { type: 'image/jpeg' }));
    const answer = await share(form);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(SHARE_AGAIN_LOCATION);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('A15: answers a large share at once, without reading it, and the connection still serves the next request', async () => {
    const form = new FormData();
    form.append('files', new File([new Uint8Array(30 * 1024 * 1024)], 'video.mp4', { type: 'video/mp4' }));
    expect((await share(form)).status).toBe(303);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it('a GET of /share is the app’s page, like any client route', async () => {
    const answer = await fetch(`${server.url}/share`, { redirect: 'manual' });
    // No client is built in tests: the page's stand-in, never a JSON 404 of the API.
    expect(answer.headers.get('content-type')).toMatch(/^text\/(plain|html)/);
  });
});

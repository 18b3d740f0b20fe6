import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { signedIn, TestClient, uniquePhone } from '../../../testkit/testClient';
import { deviceSessionsSchema } from '../../shared/devices';
import { rows, sql } from '../db/client';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe.each(testEngines())(
  'devices: GET /api/sessions, DELETE /api/sessions/{id}, logout everywhere (%s)',
  (engine) => {
    let harness: Awaited<ReturnType<typeof createTestApp>>;
    beforeAll(async () => {
      harness = await createTestApp(engine);
    });
    afterAll(() => harness?.close());

    /** One person signed in on two devices with different browsers. */
    async function twoDevices() {
      const phone = uniquePhone();
      const laptop = new TestClient(harness.app);
      await laptop.csrf();
      const signIn = (client: TestClient, ua: string) =>
        client.request({
          method: 'POST',
          url: '/api/login',
          body: { phone, name: 'Dana Devices' },
          headers: { 'user-agent': ua },
        });
      expect((await signIn(laptop, FIREFOX)).status).toBe(200);
      const phoneDevice = new TestClient(harness.app);
      await phoneDevice.csrf();
      expect((await signIn(phoneDevice, IPHONE)).status).toBe(200);
      return { laptop, phoneDevice };
    }

    it('lists each signed-in device with its browser, how it signed in and which one is this', async () => {
      const { laptop } = await twoDevices();
      const answer = await laptop.get('/api/sessions');
      expect(answer.status).toBe(200);
      const { sessions } = deviceSessionsSchema.parse(answer.body);
      expect(sessions).toHaveLength(2);
      expect(sessions[0]).toMatchObject({ current: true, user_agent: FIREFOX, via: 'phone' });
      expect(sessions[1]).toMatchObject({ current: false, user_agent: IPHONE, via: 'phone' });
      // The public id is not the session's key (the token's hash) nor the token.
      const keys = await rows<{ id: string }>(harness.app.database.db, sql`SELECT id FROM sessions`);
      for (const s of sessions) expect(keys.map((k) => k.id)).not.toContain(s.id);
      const token = laptop.jar.get('outpost_session');
      expect(token).toBeDefined();
      expect(JSON.stringify(answer.body)).not.toContain(token);
    });

    it('signs another device out: its next request is 401, this one stays signed in', async () => {
      const { laptop, phoneDevice } = await twoDevices();
      const { sessions } = deviceSessionsSchema.parse((await laptop.get('/api/sessions')).body);
      const other = sessions.find((s) => !s.current)!;
      expect((await laptop.delete(`/api/sessions/${other.id}`)).status).toBe(204);
      expect((await phoneDevice.get('/api/me')).status).toBe(401);
      expect((await laptop.get('/api/me')).status).toBe(200);
      const after = deviceSessionsSchema.parse((await laptop.get('/api/sessions')).body).sessions;
      expect(after.map((s) => s.id)).toEqual([sessions.find((s) => s.current)!.id]);
    });

    it('answers 404 alike for another person’s device, an unknown id, an ended one and a malformed one', async () => {
      const { laptop } = await twoDevices();
      const stranger = await signedIn(harness.app, 'Sly Stranger');
      const { sessions } = deviceSessionsSchema.parse((await laptop.get('/api/sessions')).body);
      const victim = sessions[1]!.id;
      const attempts = [
        await stranger.delete(`/api/sessions/${victim}`),
        await stranger.delete('/api/sessions/00000000-0000-4000-8000-000000000000'),
        await stranger.delete('/api/sessions/not-a-uuid'),
        await stranger.delete(`/api/sessions/${"'; DROP TABLE sessions; --"}`),
      ];
      for (const answer of attempts) {
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ message: 'Session not found.' });
      }
      // The victim's device is untouched.
      const still = deviceSessionsSchema.parse((await laptop.get('/api/sessions')).body).sessions;
      expect(still.map((s) => s.id)).toContain(victim);
    });

    it('signing out this device by its id ends it as Log out does (cookies cleared)', async () => {
      const { laptop } = await twoDevices();
      const { sessions } = deviceSessionsSchema.parse((await laptop.get('/api/sessions')).body);
      const mine = sessions.find((s) => s.current)!;
      expect((await laptop.delete(`/api/sessions/${mine.id}`)).status).toBe(204);
      expect((await laptop.get('/api/me')).status).toBe(401);
    });

    it('logout {everywhere: true} ends every device; a plain logout ends only this one', async () => {
      const first = await twoDevices();
      expect((await first.laptop.post('/api/logout')).status).toBe(204);
      expect((await first.phoneDevice.get('/api/me')).status).toBe(200);

      const second = await twoDevices();
      expect((await second.laptop.post('/api/logout', { everywhere: true })).status).toBe(204);
      expect((await second.laptop.get('/api/me')).status).toBe(401);
      expect((await second.phoneDevice.get('/api/me')).status).toBe(401);
    });

    it('refuses a malformed logout body with 422 and ends nothing', async () => {
      const { laptop } = await twoDevices();
      const answer = await laptop.post('/api/logout', { everywhere: 'yes' });
      expect(answer.status).toBe(422);
      expect((await laptop.get('/api/me')).status).toBe(200);
    });

    it('keeps at most 512 characters of a User-Agent and lists nothing for a guest', async () => {
      const client = new TestClient(harness.app);
      await client.csrf();
      const long = `Mozilla/5.0 ${'x'.repeat(5_000)}`;
      await client.request({
        method: 'POST',
        url: '/api/login',
        body: { phone: uniquePhone(), name: 'Long Agent' },
        headers: { 'user-agent': long },
      });
      const { sessions } = deviceSessionsSchema.parse((await client.get('/api/sessions')).body);
      expect(sessions[0]!.user_agent).toHaveLength(512);
      const guest = new TestClient(harness.app);
      expect((await guest.get('/api/sessions')).status).toBe(401);
    });
  },
);

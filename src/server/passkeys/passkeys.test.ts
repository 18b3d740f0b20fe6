import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEngines } from '../../../testkit/server';
import { SoftAuthenticator } from '../../../testkit/softAuthenticator';
import { signedIn, TestClient } from '../../../testkit/testClient';
import { deviceSessionsSchema } from '../../shared/devices';
import { PASSKEY_SIGN_IN_FAILED, passkeySchema } from '../../shared/passkeys';
import { rows, sql } from '../db/client';

/** The default PUBLIC_URL: the relying party every test app runs as. */
const ORIGIN = 'http://localhost:3000';

describe.each(testEngines())('passkeys (%s)', (engine) => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(engine);
  });
  afterAll(() => harness?.close());

  /** A signed-in person who adds a passkey made by `authenticator`. */
  async function withPasskey(name = 'Pat Passkey', authenticator = new SoftAuthenticator(ORIGIN)) {
    const person = await signedIn(harness.app, name);
    const options = await person.post<{ challenge: string; rp: { id: string; name: string }; user: never }>(
      '/api/passkeys/register/options',
    );
    expect(options.status).toBe(200);
    const added = await person.post('/api/passkeys/register', {
      response: authenticator.create(options.body),
      name: 'Work laptop',
    });
    expect(added.status, added.text).toBe(201);
    return { person, authenticator, passkey: passkeySchema.parse(added.body) };
  }

  async function signInWith(authenticator: SoftAuthenticator, client = new TestClient(harness.app)) {
    await client.csrf();
    const options = await client.post<{ challenge: string }>('/api/passkeys/login/options');
    expect(options.status).toBe(200);
    const answer = await client.post<{ user: { id: number; name: string } }>('/api/passkeys/login', {
      response: authenticator.get(options.body),
    });
    return { client, answer, options: options.body };
  }

  it('adds a named passkey (discoverable, user verification required) and lists it', async () => {
    const person = await signedIn(harness.app, 'Opt Ions');
    const options = await person.post<{
      rp: { id: string };
      authenticatorSelection: { residentKey: string; userVerification: string };
    }>('/api/passkeys/register/options');
    expect(options.body.rp.id).toBe('localhost');
    expect(options.body.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    const { person: owner, passkey } = await withPasskey();
    expect(passkey).toMatchObject({ name: 'Work laptop', last_used_at: null });
    const list = await owner.get<{ passkeys: unknown[] }>('/api/passkeys');
    expect(list.body.passkeys).toEqual([passkey]);
  });

  it('signs in with the passkey alone (no phone typed) as a passkey session, and the counter moves', async () => {
    const { person, authenticator, passkey } = await withPasskey('Solo Signer');
    const { client, answer } = await signInWith(authenticator);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.user.id).toBe(person.user!.id);
    expect((await client.get<{ user: { id: number } }>('/api/me')).body.user.id).toBe(person.user!.id);
    const devices = deviceSessionsSchema.parse((await client.get('/api/sessions')).body).sessions;
    expect(devices.find((d) => d.current)?.via).toBe('passkey');
    const [row] = await rows<{ counter: string | number; last_used_at: Date | null }>(
      harness.app.database.db,
      sql`SELECT counter, last_used_at FROM passkeys WHERE id = ${passkey.id}`,
    );
    expect(Number(row!.counter)).toBe(1);
    expect(row!.last_used_at).not.toBeNull();
  });

  it('a challenge is single use: replaying the same signed response is refused', async () => {
    const { authenticator } = await withPasskey('Re Play');
    const client = new TestClient(harness.app);
    await client.csrf();
    const options = (await client.post<{ challenge: string }>('/api/passkeys/login/options')).body;
    const response = authenticator.get(options);
    expect((await client.post('/api/passkeys/login', { response })).status).toBe(200);
    const again = new TestClient(harness.app);
    await again.csrf();
    const replay = await again.post('/api/passkeys/login', { response });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ message: PASSKEY_SIGN_IN_FAILED });
  });

  it('an expired challenge is refused', async () => {
    const { authenticator } = await withPasskey('Late Comer');
    const client = new TestClient(harness.app);
    await client.csrf();
    const options = (await client.post<{ challenge: string }>('/api/passkeys/login/options')).body;
    await harness.app.database.db.execute(
      sql`UPDATE webauthn_challenges SET expires_at = now() - interval '1 second' WHERE challenge = ${options.challenge}`,
    );
    const answer = await client.post('/api/passkeys/login', { response: authenticator.get(options) });
    expect(answer.status).toBe(401);
  });

  it('a counter that goes back (a cloned authenticator) is refused', async () => {
    const { authenticator } = await withPasskey('Clo Ned');
    expect((await signInWith(authenticator)).answer.status).toBe(200);
    expect((await signInWith(authenticator)).answer.status).toBe(200);
    authenticator.credentials[0]!.counter = 0; // the clone signs with an older count
    const { answer } = await signInWith(authenticator);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: PASSKEY_SIGN_IN_FAILED });
  });

  it('an unknown passkey, a removed one and a forged signature all get the same 401', async () => {
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({
      challenge: 'AAAAAAAAAAAAAAAAAAAAAA',
      rp: { name: 'x' },
      user: { id: 'eA', name: 'x', displayName: 'x' },
    });
    const unknown = await signInWith(stranger);

    const { person, authenticator, passkey } = await withPasskey('Re Moved');
    expect((await person.delete(`/api/passkeys/${passkey.id}`)).status).toBe(204);
    const removed = await signInWith(authenticator);

    const forged = await withPasskey('For Ged');
    const client = new TestClient(harness.app);
    await client.csrf();
    const options = (await client.post<{ challenge: string }>('/api/passkeys/login/options')).body;
    const response = forged.authenticator.get(options);
    response.response.signature = Buffer.from('not a signature at all').toString('base64url');
    const bad = await client.post('/api/passkeys/login', { response });

    for (const answer of [unknown.answer, removed.answer, bad]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ message: PASSKEY_SIGN_IN_FAILED });
    }
  });

  it('a response made for another origin or relying party is refused', async () => {
    const { authenticator } = await withPasskey('Phi Shing');
    const phishing = new SoftAuthenticator('https://outpost.example.evil', 'localhost');
    phishing.credentials.push(...authenticator.credentials);
    expect((await signInWith(phishing)).answer.status).toBe(401);
    const otherRp = new SoftAuthenticator(ORIGIN, 'example.com');
    otherRp.credentials.push(...authenticator.credentials);
    expect((await signInWith(otherRp)).answer.status).toBe(401);
  });

  it('someone else’s passkey is 404 to list or remove; a registration needs the challenge handed to this person', async () => {
    const { passkey } = await withPasskey('Own Er');
    const other = await signedIn(harness.app, 'Oth Er');
    expect((await other.delete(`/api/passkeys/${passkey.id}`)).status).toBe(404);
    expect((await other.delete('/api/passkeys/not-a-number')).status).toBe(404);
    // Past PostgreSQL's integer range: a 404 like any id nobody has, never the database's error.
    expect((await other.delete('/api/passkeys/2147483648')).status).toBe(404);
    expect((await other.delete('/api/passkeys/1e3')).status).toBe(404);
    expect((await other.get<{ passkeys: unknown[] }>('/api/passkeys')).body.passkeys).toEqual([]);
    // A challenge handed to Owner cannot register a passkey on Other's account.
    const { person: owner } = await withPasskey('Own Er Two');
    const options = (
      await owner.post<{ challenge: string; rp: { name: string }; user: never }>(
        '/api/passkeys/register/options',
      )
    ).body;
    const stolen = await other.post('/api/passkeys/register', {
      response: new SoftAuthenticator(ORIGIN).create(options),
    });
    expect(stolen.status).toBe(422);
  });

  it('renames a passkey of one’s own; someone else’s is 404 and unchanged; bad names are 422', async () => {
    const { person, passkey } = await withPasskey('Re Namer');
    const renamed = await person.patch<{ name: string; id: number }>(`/api/passkeys/${passkey.id}`, {
      name: '  Desk key  ',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: passkey.id, name: 'Desk key' });
    const other = await signedIn(harness.app, 'Not Owner');
    const foreign = await other.patch(`/api/passkeys/${passkey.id}`, { name: 'Mine now' });
    expect(foreign.status).toBe(404);
    expect((await other.patch('/api/passkeys/2147483648', { name: 'x' })).status).toBe(404);
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(200) },
      { name: 'ok', extra: 1 },
    ]) {
      expect((await person.patch(`/api/passkeys/${passkey.id}`, body)).status, JSON.stringify(body)).toBe(
        422,
      );
    }
    const listed = await person.get<{ passkeys: { name: string }[] }>('/api/passkeys');
    expect(listed.body.passkeys.map((p) => p.name)).toEqual(['Desk key']);
  });

  it('refuses malformed bodies with 422, and anonymous registration with 401', async () => {
    const person = await signedIn(harness.app, 'Bad Input');
    for (const body of [
      {},
      { response: 'x' },
      { response: { id: 'a', rawId: 'a', type: 'nope', response: {} } },
      { response: null, name: 5 },
    ]) {
      expect((await person.post('/api/passkeys/register', body)).status).toBe(422);
    }
    const guest = new TestClient(harness.app);
    await guest.csrf();
    expect((await guest.post('/api/passkeys/register/options')).status).toBe(401);
    expect((await guest.post('/api/passkeys/login', { response: 'x' })).status).toBe(422);
  });
});

import { afterAll, beforeAll } from 'vitest';
import { createDevice, type Device, signIn } from './harness';
import { type ClientTestServer, freshPhone, startClientTestServer } from './server';

type DeviceOptions = Parameters<typeof createDevice> extends [string, ...infer Rest] ? Rest : never;

/**
 * One real server for a test file, started before its tests, and the devices made against it, all
 * closed after them.
 */
export function testDevices() {
  let server: ClientTestServer | null = null;
  const devices: Device[] = [];
  beforeAll(async () => {
    server = await startClientTestServer();
  });
  afterAll(async () => {
    // Writes push in the background (W2): let them land before the databases close.
    for (const d of devices) await d.client.engine.settled();
    for (const d of devices) d.client.close();
    await server?.close();
  });
  const kept = (d: Device) => {
    devices.push(d);
    return d;
  };
  const url = () => {
    if (!server) throw new Error('the test server starts in beforeAll');
    return server.url;
  };
  return {
    /** Closes `d` with the others after the file (a reloaded device, say). */
    track: kept,
    /** A device of the test server (createDevice's options), not signed in. */
    device: (...options: DeviceOptions) => kept(createDevice(url(), ...options)),
    /** A guest device whose server is unreachable: nothing it does can reach one. */
    guest: () => {
      const d = kept(createDevice('http://127.0.0.1:9'));
      d.client.auth.getState().initGuest();
      return d;
    },
    /** A device signed in as a new user. */
    signedIn: async (name = 'Tester') => {
      const d = kept(createDevice(url()));
      await signIn(d, freshPhone(), name);
      return d;
    },
  };
}

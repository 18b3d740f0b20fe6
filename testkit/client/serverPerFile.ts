import { afterAll, beforeAll } from 'vitest';
import { type Device, settled } from './harness';
import { type ClientTestServer, startClientTestServer } from './server';

/**
 * The real server for the calling test file (or describe block): started before its tests, and after
 * them every device it lists is let settle and closed before the server closes.
 */
export function serverPerFile(): { readonly server: ClientTestServer; readonly devices: Device[] } {
  let server: ClientTestServer | undefined;
  const devices: Device[] = [];
  beforeAll(async () => {
    server = await startClientTestServer();
  });
  afterAll(async () => {
    await settled(...devices);
    for (const d of devices) d.client.close();
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('serverPerFile: the server starts in beforeAll');
      return server;
    },
    devices,
  };
}

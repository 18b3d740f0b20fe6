import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app';
import type { Database } from '../../src/server/db/client';
import { openTestDatabase } from '../server';

export interface ClientTestServer {
  url: string;
  /** The server's database, for set-ups the API cannot make quickly (thousands of items). */
  database: Database;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real server on PGlite, like server/testing.ts's startTestServer, but with the sign-in and write
 * limits off: the model test signs in hundreds of simulated devices a minute from one address.
 */
export async function startClientTestServer(): Promise<ClientTestServer> {
  const database = await openTestDatabase('pglite');
  // Files on items go to a folder of this server's own (DATA_DIR/files), gone when it closes.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'outpost-client-test-'));
  const config = { seedSampleUsers: true, loginsPerMinute: 0, writesPerMinute: 0, dataDir };
  let app = await buildApp({ database, config });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  return {
    url: address,
    database,
    async restart() {
      await app.close();
      app = await buildApp({ database, config });
      await app.listen({ port, host: '127.0.0.1' });
    },
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const phoneBase = Math.floor(Math.random() * 9_000_000);
let phoneCounter = 0;

/** A fresh US test phone per call, so every test signs in as its own user. */
export function freshPhone(): string {
  phoneCounter += 1;
  return `+1555${String((phoneBase + phoneCounter) % 10_000_000).padStart(7, '0')}`;
}

import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createOutpostClient, type OutpostClient } from '../../src/client/data/client';
import type { FetchLike } from '../../src/client/data/net/apiClient';
import { manualConnectivity } from '../../src/client/data/net/connectivity';
import { noteScreenDrawn, subscribeFirstRows } from '../../src/client/data/store/firstRows';
import { createCookieFetch } from './cookieFetch';

let deviceCounter = 0;

export interface NetworkControl {
  /** Every request is counted, for guest isolation tests. */
  requests: { method: string; url: string }[];
  /** Throws like a dropped connection before the request reaches the server. */
  offline: boolean;
  /** The server commits the next matching request, then the answer is lost. */
  dropNextResponse: ((method: string, url: string) => boolean) | null;
  /** The next matching request is delivered twice; the client sees the second answer. */
  duplicateNext: ((method: string, url: string) => boolean) | null;
  /** Answers the next matching request with this status instead of sending it. */
  failNext: {
    match: (method: string, url: string) => boolean;
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
  } | null;
  /** Holds the next matching request before it is sent, until `release` is called. */
  holdNext: ((method: string, url: string) => boolean) | null;
  /** Lets a held request go on to the server. */
  release: () => void;
  /** Requests held now (sent once released). */
  held: number;
}

/** A simulated device: its own IndexedDB, cookie jar, connectivity and flaky network. */
export function createDevice(
  baseUrl: string,
  name = `device-${++deviceCounter}`,
  reuse: { idb?: IDBFactory; jar?: ReturnType<typeof createCookieFetch> } = {},
) {
  const jar = reuse.jar ?? createCookieFetch();
  const idb = reuse.idb ?? new IDBFactory();
  const control: NetworkControl = {
    requests: [],
    offline: false,
    dropNextResponse: null,
    duplicateNext: null,
    failNext: null,
    holdNext: null,
    release: () => {},
    held: 0,
  };

  const connectivity = manualConnectivity(true);
  const fetch: FetchLike = async (input, init) => {
    const method = init?.method ?? 'GET';
    const url = String(input);
    control.requests.push({ method, url });
    if (control.offline) throw new TypeError('fetch failed');
    if (control.holdNext?.(method, url)) {
      control.holdNext = null;
      control.held++;
      await new Promise<void>((resolve) => {
        control.release = resolve;
      });
      control.held--;
    }
    if (control.failNext?.match(method, url)) {
      const { status, body, headers } = control.failNext;
      control.failNext = null;
      return new Response(JSON.stringify(body ?? { message: `Injected ${status}` }), {
        status,
        headers: { 'Content-Type': 'application/json', ...headers },
      });
    }
    if (control.duplicateNext?.(method, url)) {
      control.duplicateNext = null;
      await jar.fetch(input, init);
      return jar.fetch(input, init);
    }
    const response = await jar.fetch(input, init);
    if (control.dropNextResponse?.(method, url)) {
      control.dropNextResponse = null;
      await response.arrayBuffer();
      throw new TypeError('fetch failed: connection reset');
    }
    return response;
  };
  const client = createOutpostClient({
    baseUrl,
    fetch,
    dbName: `Outpost-${name}`,
    indexedDB: idb,
    IDBKeyRange,
    xsrfToken: () => jar.cookie('XSRF-TOKEN'),
    connectivity,
    locks: null,
  });
  return {
    client,
    control,
    jar,
    idb,
    name,
    /** The same browser after a reload: same IndexedDB, same cookies, a fresh client. */
    reload() {
      client.close();
      return createDevice(baseUrl, name, { idb, jar });
    },
    /** Offline: the browser says so and requests fail. */
    goOffline() {
      control.offline = true;
      connectivity.set(false);
    },
    goOnline() {
      control.offline = false;
      connectivity.set(true);
    },
  };
}
export type Device = ReturnType<typeof createDevice>;

/** Signs a device in and waits for the sync login starts. */
export async function signIn(device: Device, phone: string, name = 'Tester'): Promise<void> {
  await device.client.auth.getState().login(phone, name);
  await device.client.lastSync();
}

export type { OutpostClient };

type CreateInput = Parameters<OutpostClient['items']['create']>[0];
type StoredItem = Awaited<ReturnType<OutpostClient['items']['create']>>;

/** The device's stored copy of an item now, found by uuid (its id may have become the server's). */
export async function stored(
  device: Device,
  item: Pick<StoredItem, 'uuid'>,
): Promise<StoredItem | undefined> {
  return item.uuid ? device.client.db.items.where('uuid').equals(item.uuid).first() : undefined;
}

/**
 * Creates an item and waits for its push (W1: the create itself resolves once stored): the stored
 * copy afterwards, with the server's id when the server took it.
 */
export async function createSynced(device: Device, input: CreateInput): Promise<StoredItem> {
  const local = await device.client.items.create(input);
  await device.client.engine.settled();
  return (await stored(device, local)) ?? local;
}

/**
 * Waits until the devices' background pushes and sync runs are done (W1: a write resolves once stored
 * locally and only starts its push). Tests call it where they mean "after it synced".
 */
export async function settled(...devices: Device[]): Promise<void> {
  for (const d of devices) await d.client.engine.settled();
}

/**
 * A screen on the device as Home is one: it draws a fresh device's first rows from memory as soon as
 * they are shown (SYNC.md L8's count waits for that). Answers the stop.
 */
export function drawsFirstRows(device: Device): () => void {
  const { db } = device.client;
  // noteScreenDrawn itself does nothing while no rows are shown or once they are drawn.
  const draw = () => noteScreenDrawn(db);
  return subscribeFirstRows(db, draw);
}

/** The door's part of the client: each command namespace's context (composed by client.ts, ARCHITECTURE §6). */
import type { AuthStore } from '../../stores/authStore';
import type { LazyEngine } from '../sync/lazyEngine';
import type { CommandContexts } from './map';

type Contexts = CommandContexts;

/** Each command namespace's context: the services it declared, and nothing else (./map.ts). */
export const contextsPart = {
  name: 'contexts',
  needs: [
    'items',
    'db',
    'storage',
    'undo',
    'transfer',
    'engine',
    'notifications',
    'api',
    'viewer',
    'updateMutuals',
    'search',
    'auth',
    'uploads',
  ],
  create({
    items,
    db,
    storage,
    undo,
    transfer,
    engine,
    notifications,
    api,
    viewer,
    updateMutuals,
    search,
    auth,
    uploads,
  }: {
    items: Contexts['items']['repository'];
    db: Contexts['device']['db'];
    storage: { keep: Contexts['items']['keepStorage'] };
    undo: Contexts['undo']['undo'];
    transfer: Contexts['transfer']['transfer'];
    engine: LazyEngine;
    notifications: Contexts['notifications']['notifications'];
    api: Contexts['server']['api'];
    viewer: Contexts['contacts']['viewer'] & Contexts['comments']['viewer'] & Contexts['templates']['viewer'];
    updateMutuals: (force?: boolean) => Promise<void>;
    search: { search: Contexts['search']['search'] };
    auth: AuthStore;
    uploads: Contexts['attachments']['uploads'];
  }): CommandContexts {
    const restored = () => auth.getState().restore();
    const keepStorage = storage.keep;
    const { pushNow } = engine;
    return {
      items: { repository: items, db, keepStorage },
      undo: { undo },
      trash: { undo },
      transfer: { transfer },
      sync: { engine, db },
      device: { db },
      notifications: { notifications },
      contacts: { api, db, viewer, refreshMutuals: () => updateMutuals(true) },
      search: { search: search.search, db },
      server: { api },
      sharing: { api, engine },
      comments: { api, db, viewer, restored, pushNow, keepStorage },
      webhooks: { api },
      email: { api },
      time: { api, db, viewer, restored, pushNow, keepStorage },
      attachments: { db, viewer, restored, pushNow, keepStorage, uploads },
      templates: { api, db, viewer, restored, pushNow, keepStorage },
      views: { api, db },
    };
  },
} as const;

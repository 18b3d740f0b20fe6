/** Search's part of the client (composed by client.ts, ARCHITECTURE §6). */
import type { ApiClient } from '../net/apiClient';
import type { OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';
import { createSearchPart } from './searchService';

/** Search and its index (./searchService.ts): the code loads when the dialog first asks. */
export const searchPart = {
  name: 'search',
  needs: ['db', 'api', 'viewer', 'isOnline'],
  create: ({
    db,
    api,
    viewer,
    isOnline,
  }: {
    db: OutpostDb;
    api: ApiClient;
    viewer: () => Viewer;
    isOnline: () => boolean;
  }) => createSearchPart({ db, api, viewer, isOnline }),
} as const;

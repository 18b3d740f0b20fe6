/**
 * The one surface through which the benchmarks reach the client's data layer (issue 63): what they
 * measure or seed with, named here, so a change inside src/client/data meets the benches in one file.
 * scripts/checkBoundaries.ts refuses any other import of src/client/data under bench/.
 */

export type { LocalEcho } from '../../src/client/data/changes/localEcho';
export { shownInManualOrder, withLocalEcho } from '../../src/client/data/changes/localEcho';
export { setOwnRawTransaction } from '../../src/client/data/changes/writeRoute';
export type { OutpostClient } from '../../src/client/data/client';
export { createOutpostClient } from '../../src/client/data/client';
export { manualConnectivity } from '../../src/client/data/net/connectivity';
export { itemComments } from '../../src/client/data/reads/itemPageReads';
export { deviceReads, LIST_PAGE } from '../../src/client/data/reads/live';
export { searchIndexed } from '../../src/client/data/search/search';
export { CHILDREN_INDEX, childrenRange } from '../../src/client/data/store/childRows';
export { COUNTS_STORE, countRowsFromScratch } from '../../src/client/data/store/counters';
export {
  COMMENTS_TIMELINE_INDEX,
  LIST_INDEX,
  OutpostDb,
  UNREAD_INDEXES_V15,
} from '../../src/client/data/store/db';
export { setPlainDexie } from '../../src/client/data/store/dexieInternals';
export { listKeysOf, withKeys } from '../../src/client/data/store/listKeys';
export { fromServer, usersOf } from '../../src/client/data/store/localItems';
export { SEARCH_LOG_STORE } from '../../src/client/data/store/searchLog';
export { topFlagsFromScratch } from '../../src/client/data/store/topFlags';
export type { LocalComment, LocalItem, LocalUser, QueueEntry } from '../../src/client/data/store/types';
export { trackLocalWrite } from '../../src/client/data/store/writesInFlight';
export { applyPulled } from '../../src/client/data/sync';
export { upgradeBatchSize } from '../../src/client/data/sync/guestUpgrade';

/**
 * The device's item reads bound to a viewer (ARCHITECTURE §6 'Layers inside data/': the reads). The
 * composition binds them once per client; `useLive` (reads/live.ts) hands them to the live queries.
 * A declared table, not a forwarder per read: a new read is one line here.
 */
import type { OutpostDb } from '../store/db';
import type { Viewer } from '../store/types';
import * as agenda from './agendaQueries';
import * as queries from './itemQueries';
import { later } from './laterReads';
import { savedViews } from './savedViewList';

/** A read of the viewer's items: the database and the viewer come first, then its own arguments. */
type ViewerRead = (db: OutpostDb, viewer: Viewer, ...args: never[]) => unknown;

/** Reads with the database and the viewer of the moment they run bound. */
type ForViewer<T> = {
  [K in keyof T]: T[K] extends (db: OutpostDb, viewer: Viewer, ...args: infer A) => infer R
    ? (...args: A) => R
    : never;
};

type Reads<F> = F extends (db: OutpostDb, viewer: Viewer, ...args: infer A) => infer R ? [A, R] : never;
type LaterRead<F> = (db: OutpostDb, viewer: Viewer, ...args: Reads<F>[0]) => Reads<F>[1] | undefined;

const calendar = () => import('./calendarQueries');
type Calendar = Awaited<ReturnType<typeof calendar>>;
type Labels = typeof import('./labelQueries');
const views = () => import('./viewQueries');
type Views = Awaited<ReturnType<typeof views>>;

/** The reads of screens Home does not show load with the first that asks (./laterReads.ts). */
const LATER_READS = {
  calendarItems: later(async () => (await calendar()).calendarItems) as LaterRead<Calendar['calendarItems']>,
  timelineGroups: later(async () => (await calendar()).timelineGroups) as LaterRead<
    Calendar['timelineGroups']
  >,
  labelItems: later(async () => (await import('./labelQueries')).labelItems) as LaterRead<
    Labels['labelItems']
  >,
  viewItems: later(async () => (await views()).viewItems) as LaterRead<Views['viewItems']>,
};

/** The list reads a live query calls by name (itemQueries.ts, agendaQueries.ts; later ones above). */
const LIST_READS = {
  homeItems: queries.homeItems,
  homeCount: queries.homeCount,
  screenItems: queries.screenItems,
  screenCount: queries.screenCount,
  myListItems: queries.myListItems,
  myListCounts: queries.myListCounts,
  subtreeProgress: queries.subtreeProgressOf,
  todayPage: agenda.todayPage,
  todayCounts: agenda.todayCounts,
  upcomingPage: agenda.upcomingPage,
  savedViews,
  ...LATER_READS,
} satisfies Record<string, ViewerRead>;

/** The item reads below observe their temporary-id resolution first (see `observe`). */
const ITEM_READS = {
  itemById: queries.itemById,
  childrenOf: queries.childrenOf,
  childrenOldestFirst: queries.childrenOldestFirst,
  progressFor: queries.progressFor,
  insideOf: queries.insideOf,
} satisfies Record<string, ViewerRead>;

/** Binds reads to a database and to the viewer of the moment each runs (a sign-in changes it). */
function forViewer<T extends Record<string, ViewerRead>>(
  reads: T,
  db: OutpostDb,
  viewer: () => Viewer,
): ForViewer<T> {
  const bound: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(reads))
    bound[name] = (...args: never[]) => read(db, viewer(), ...args);
  return bound as ForViewer<T>;
}

/** The list reads a live query calls by name, for the viewer of now. */
export type ListReads = ForViewer<typeof LIST_READS>;

/** Every read bound to the viewer: the list reads and the item reads live.ts wraps. */
export type ViewerReads = ListReads & ForViewer<typeof ITEM_READS>;

/** The reads of `db` for the viewer of the moment each runs (a sign-in changes it). */
export function viewerReads(db: OutpostDb, viewer: () => Viewer): ViewerReads {
  return { ...forViewer(LIST_READS, db, viewer), ...forViewer(ITEM_READS, db, viewer) };
}

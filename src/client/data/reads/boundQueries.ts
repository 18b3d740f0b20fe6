import type { OutpostDb } from '../store/db';
import type { LocalItem, Viewer } from '../store/types';
import * as agenda from './agendaQueries';
import * as queries from './itemQueries';
import * as labelQueries from './labelQueries';

/**
 * The device's reads bound to its database and the viewer of now (each call asks `viewer()` afresh):
 * what a live query reads through (live.ts LocalReads) and what the client offers as `queries`.
 */
export function bindQueries(db: OutpostDb, viewer: () => Viewer) {
  return {
    homeItems: (tab: queries.Tab, o?: queries.ListOptions) => queries.homeItems(db, viewer(), tab, o),
    homeCount: (tab: queries.Tab) => queries.homeCount(db, viewer(), tab),
    screenItems: (
      screen: Parameters<typeof queries.screenItems>[2],
      tab: queries.Tab,
      o?: queries.ListOptions,
    ) => queries.screenItems(db, viewer(), screen, tab, o),
    screenCount: (screen: Parameters<typeof queries.screenCount>[2], tab: queries.Tab) =>
      queries.screenCount(db, viewer(), screen, tab),
    myListItems: (s: Parameters<typeof queries.myListItems>[2], o?: queries.ListOptions) =>
      queries.myListItems(db, viewer(), s, o),
    myListCounts: (search?: string) => queries.myListCounts(db, viewer(), search),
    assignedToMe: (o?: queries.ListOptions) => queries.assignedToMe(db, viewer(), o),
    itemsByStatus: (s: Parameters<typeof queries.itemsByStatus>[2], o?: queries.ListOptions) =>
      queries.itemsByStatus(db, viewer(), s, o),
    childrenOf: (id: number, type?: Parameters<typeof queries.childrenOf>[3]) =>
      queries.childrenOf(db, viewer(), id, type),
    childrenOldestFirst: (id: number, o?: { limit?: number; after?: LocalItem }) =>
      queries.childrenOldestFirst(db, viewer(), id, o),
    progressFor: (id: number) => queries.progressFor(db, viewer(), id),
    subtreeProgress: (ids: readonly number[]) => queries.subtreeProgressOf(db, viewer(), ids),
    inside: (id: number) => queries.insideOf(db, viewer(), id),
    itemById: (id: number) => queries.itemById(db, viewer(), id),
    pendingCount: () => queries.pendingCount(db),
    todayPage: (today: string, limits: { overdue: number; today: number }) =>
      agenda.todayPage(db, viewer(), today, limits),
    todayCounts: (today: string) => agenda.todayCounts(db, viewer(), today),
    upcomingPage: (today: string, days: number, limit: number, limits?: Readonly<Record<string, number>>) =>
      agenda.upcomingPage(db, viewer(), today, days, limit, limits),
    labelItems: (label: string) => labelQueries.labelItems(db, viewer(), label),
  };
}

/** The bound reads (bindQueries). */
export type BoundQueries = ReturnType<typeof bindQueries>;

/**
 * The first element of every server-list query key (campaign pages, activity, mutual contacts): the
 * door's change signal refetches every query under it (queryProvider).
 */
export const SERVER_LIST_KEY = 'server-list';

/** What every item's page loads as it opens: the comment and file commands, and the strip of files. */
const ITEM_PAGE_ALSO = [
  'data/commands/comments',
  'attachments/AttachmentStrip',
  'data/commands/attachments',
] as const;

/**
 * Every screen: its path (react-router syntax), most specific first as <Routes> ranks these, and its
 * module under src/client. `serverData`: the screen reads server-only data through TanStack Query, so
 * its chunk loads with the QueryClient's (router.tsx). `also`: modules the screen loads by itself as it
 * opens (drag and drop on the screens that reorder, items/sortableModule.ts; the comment and file commands
 * where a timeline takes comments and a strip files, so one written or picked offline soon after needs no
 * download; the strip of files itself), preloaded with its chunk.
 * Plain data, so the build (vite.config.ts) can read it to write each screen's preloads into
 * theme-init.js.
 */
export const ROUTE_TABLE = [
  { path: '/', page: 'home', module: 'home/HomePage' },
  { path: '/my-list', page: 'myList', module: 'lists/MyListPage' },
  { path: '/queue', page: 'queue', module: 'lists/QueuePage' },
  { path: '/active', page: 'active', module: 'lists/ActivePage' },
  { path: '/completed', page: 'completed', module: 'lists/CompletedPage' },
  { path: '/today', page: 'today', module: 'planner/TodayPage', also: ['items/SortableItems'] },
  { path: '/upcoming', page: 'upcoming', module: 'planner/UpcomingPage' },
  { path: '/calendar', page: 'calendar', module: 'plans/CalendarPage' },
  { path: '/timeline', page: 'timeline', module: 'plans/TimelinePage' },
  { path: '/labels/:name', page: 'label', module: 'lists/LabelPage' },
  // A shared view shows its campaign's members (their avatars, a server read).
  { path: '/views/:id', page: 'view', module: 'views/ViewPage', serverData: true },
  { path: '/campaigns/:id/timeline', page: 'campaignTimeline', module: 'plans/TimelinePage' },
  { path: '/campaigns', page: 'campaigns', module: 'campaigns/CampaignListPage', serverData: true },
  {
    path: '/campaigns/:id',
    page: 'campaign',
    module: 'campaigns/CampaignDetailPage',
    serverData: true,
    also: ['items/SortableItems', ...ITEM_PAGE_ALSO],
  },
  {
    path: '/tasks/:id',
    page: 'task',
    module: 'tasks/TaskDetailPage',
    also: ['items/SortableItems', ...ITEM_PAGE_ALSO],
  },
  { path: '/todos/:id', page: 'todo', module: 'tasks/TodoDetailPage', also: ITEM_PAGE_ALSO },
  { path: '/contacts', page: 'contacts', module: 'contacts/ContactsPage', serverData: true },
  { path: '/notifications', page: 'notifications', module: 'notifications/NotificationsPage' },
  { path: '/reports/time', page: 'timeReport', module: 'time/TimeReportPage' },
  { path: '/preferences', page: 'preferences', module: 'preferences/PreferencesPage', serverData: true },
  // The sign-in screens read two public facts through the server reads, without the QueryClient
  // (app/pageLifeRead.ts): a new visitor's first screen does without the query library.
  {
    path: '/onboarding',
    page: 'onboarding',
    module: 'onboarding/OnboardingPage',
    also: ['data/commands/server'],
  },
  { path: '/login', page: 'login', module: 'login/LoginPage', also: ['data/commands/server'] },
  { path: '/invite/:token', page: 'invite', module: 'sharing/InvitePage', serverData: true },
  // The links in Outpost's mails (issue 65).
  { path: '/verify-email', page: 'verifyEmail', module: 'email/VerifyEmailPage', serverData: true },
  { path: '/unsubscribe', page: 'unsubscribe', module: 'email/UnsubscribePage' },
  { path: '*', page: 'notFound', module: 'app/NotFoundPage' },
] as const;

export type PageKey = (typeof ROUTE_TABLE)[number]['page'];

/** Whether a route's screen reads server-only data (TanStack Query). */
export function readsServerData(route: (typeof ROUTE_TABLE)[number]): boolean {
  return 'serverData' in route && route.serverData;
}

/** The modules a route's screen loads itself as it opens, to preload with its chunk. */
export function routeAlso(route: (typeof ROUTE_TABLE)[number]): readonly string[] {
  return 'also' in route ? route.also : [];
}

/** A path pattern as a regular expression source (case-insensitive, optional trailing slash, as matchPath). */
export function patternSource(path: string): string {
  if (path === '*') return '^.*$';
  return `^${path.replace(/:\w+/g, '[^/]+').replace(/\/$/, '')}/?$`;
}

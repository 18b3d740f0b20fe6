import { type ComponentType, type LazyExoticComponent, lazy, useState } from 'react';
import { matchPath, Route, Routes } from 'react-router';
import { RootLayout } from './RootLayout';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { isOnboardingExempt } from './routeMeta';
import { type PageKey, ROUTE_TABLE, readsServerData } from './routeTable';

type PageModule = { default: ComponentType };

/** A screen that reads server-only data, loaded together with the QueryClient it needs (queryProvider). */
function withQueries(page: Promise<PageModule>): Promise<PageModule> {
  return Promise.all([page, import('./queryProvider')]).then(([m, q]) => ({
    default: q.withQueryClient(m.default),
  }));
}

/** Both timelines (all campaigns, one campaign) are one screen: one import, one preload list. */
const timelinePage = () => import('../plans/TimelinePage');

// Each screen is its own chunk: the first paint only pays for the shell and the screen it shows.
const importers = {
  home: () => import('../home/HomePage'),
  myList: () => import('../lists/MyListPage'),
  queue: () => import('../lists/QueuePage'),
  active: () => import('../lists/ActivePage'),
  completed: () => import('../lists/CompletedPage'),
  today: () => import('../planner/TodayPage'),
  upcoming: () => import('../planner/UpcomingPage'),
  calendar: () => import('../plans/CalendarPage'),
  timeline: timelinePage,
  campaignTimeline: timelinePage,
  label: () => import('../lists/LabelPage'),
  view: () => import('../views/ViewPage'),
  campaigns: () => import('../campaigns/CampaignListPage'),
  campaign: () => import('../campaigns/CampaignDetailPage'),
  task: () => import('../tasks/TaskDetailPage'),
  todo: () => import('../tasks/TodoDetailPage'),
  contacts: () => import('../contacts/ContactsPage'),
  notifications: () => import('../notifications/NotificationsPage'),
  preferences: () => import('../preferences/PreferencesPage'),
  timeReport: () => import('../time/TimeReportPage'),
  onboarding: () => import('../onboarding/OnboardingPage'),
  login: () => import('../login/LoginPage'),
  invite: () => import('../sharing/InvitePage'),
  verifyEmail: () => import('../email/VerifyEmailPage'),
  unsubscribe: () => import('../email/UnsubscribePage'),
  notFound: () => import('./NotFoundPage'),
} satisfies Record<PageKey, () => Promise<PageModule>>;

/** Screens whose chunk has loaded: they render at once, with no Suspense fallback in between. */
const loadedPages: Partial<Record<PageKey, ComponentType>> = {};

const serverDataPages = new Set<PageKey>(ROUTE_TABLE.filter(readsServerData).map((r) => r.page));

function loadPage(key: PageKey) {
  const page = importers[key]();
  return (serverDataPages.has(key) ? withQueries(page) : page).then((m) => {
    loadedPages[key] = m.default;
    return m;
  });
}

const lazyPages = new Map<PageKey, LazyExoticComponent<ComponentType>>();

/** One React.lazy per screen (its identity must not change between renders). */
function lazyPage(key: PageKey): LazyExoticComponent<ComponentType> {
  let page = lazyPages.get(key);
  if (!page) {
    page = lazy(() => loadPage(key));
    lazyPages.set(key, page);
  }
  return page;
}

function RoutePage({ screen }: { screen: PageKey }) {
  // Chosen once per mount, so a screen never remounts when its chunk arrives.
  const [Screen] = useState<ComponentType>(() => loadedPages[screen] ?? lazyPage(screen));
  return <Screen />;
}

/** The screen `pathname` shows, or null when nothing matches (never: '*' is last). */
export function pageFor(pathname: string): PageKey | null {
  return ROUTE_TABLE.find(({ path }) => path === '*' || matchPath(path, pathname))?.page ?? null;
}

/**
 * Starts loading the chunk of the screen `pathname` shows, before React renders: otherwise the first
 * screen's chunk is only asked for once the main chunk has run and the router has rendered. A visitor
 * who has not finished onboarding is sent to /onboarding (RootLayout), so that chunk is the one loaded.
 */
export function preloadRoute(pathname: string, onboarded: boolean): Promise<unknown> | null {
  const key = pageFor(onboarded || isOnboardingExempt(pathname) ? pathname : '/onboarding');
  // Errors are not reported here: React.lazy runs the same import and the route's error boundary shows them.
  return key ? loadPage(key).catch(() => {}) : null;
}

declare global {
  interface Window {
    /** public/theme-init.js: low-priority modulepreload links for a route's chunks and the data layer's (builds only). */
    __outpostPrefetch?: (pathname: string) => void;
    /** public/theme-init.js: Home's chunks and what a sign-in loads as it runs (vite.config.ts SIGN_IN_MODULES). */
    __outpostPrefetchSignIn?: () => void;
  }
}

/**
 * Downloads the chunks of the screen `pathname` shows without running them (React.lazy imports them
 * when the screen opens, and finds them here): for a screen a moment away, like Home after a sign-in.
 * A build asks at low priority, so a request the user is waiting for (the sign-in's) goes first; the
 * dev server, with no chunk plan, imports the screen.
 */
export function prefetchRoute(pathname: string): void {
  if (typeof window !== 'undefined' && window.__outpostPrefetch) {
    window.__outpostPrefetch(pathname);
    return;
  }
  const key = pageFor(pathname);
  if (key) void importers[key]().catch(() => {});
}

/**
 * From the sign-in form: downloads what a sign-in loads as it runs, at low priority like prefetchRoute,
 * Home's chunks among them (the sign-in's steps and a guest's celebration first, the sync engine last):
 * asked for at the click, they held the connections the sign-in's requests and first page needed. The
 * dev server, with no chunk plan, prefetches Home alone.
 */
export function prefetchSignIn(): void {
  if (typeof window !== 'undefined' && window.__outpostPrefetchSignIn) window.__outpostPrefetchSignIn();
  else prefetchRoute('/');
}

/** Every screen inside the shell, each behind its own error boundary. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {ROUTE_TABLE.map(({ path, page: key }) => (
          <Route
            key={key}
            path={path}
            element={
              // Keyed: two screens are never one RoutePage instance.
              <RouteErrorBoundary key={key}>
                <RoutePage screen={key} />
              </RouteErrorBoundary>
            }
          />
        ))}
      </Route>
    </Routes>
  );
}

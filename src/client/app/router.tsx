import { type ComponentType, type LazyExoticComponent, lazy, useState } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';
import { isOnboardingExempt } from './routeMeta';

// Each screen is its own chunk: the first paint only pays for the shell and the screen it shows.
const importers = {
  home: () => import('../home/HomePage'),
  myList: () => import('../lists/MyListPage'),
  queue: () => import('../lists/QueuePage'),
  active: () => import('../lists/ActivePage'),
  completed: () => import('../lists/CompletedPage'),
  campaigns: () => import('../campaigns/CampaignListPage'),
  campaign: () => import('../campaigns/CampaignDetailPage'),
  task: () => import('../tasks/TaskDetailPage'),
  contacts: () => import('../contacts/ContactsPage'),
  notifications: () => import('../notifications/NotificationsPage'),
  preferences: () => import('../preferences/PreferencesPage'),
  onboarding: () => import('../onboarding/OnboardingPage'),
  login: () => import('../login/LoginPage'),
  notFound: () => import('./NotFoundPage'),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

type PageKey = keyof typeof importers;

/** Which screen's chunk each route renders, for preloadRoute. */
const routePages = new Map<RouteObject, PageKey>();

/** Screens whose chunk has loaded: they render at once, with no Suspense fallback in between. */
const loadedPages: Partial<Record<PageKey, ComponentType>> = {};

function loadPage(key: PageKey) {
  return importers[key]().then((m) => {
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

/** A route with its own error boundary, so one broken screen never blanks the app. */
function page(path: string, key: PageKey, index = false): RouteObject {
  // Keyed: two screens are never one RoutePage instance.
  const element = <RoutePage key={key} screen={key} />;
  const route: RouteObject = index
    ? { index: true, element, errorElement: <RouteError /> }
    : { path, element, errorElement: <RouteError /> };
  routePages.set(route, key);
  return route;
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      page('/', 'home', true),
      page('my-list', 'myList'),
      page('queue', 'queue'),
      page('active', 'active'),
      page('completed', 'completed'),
      page('campaigns', 'campaigns'),
      page('campaigns/:id', 'campaign'),
      page('tasks/:id', 'task'),
      page('contacts', 'contacts'),
      page('notifications', 'notifications'),
      page('preferences', 'preferences'),
      page('onboarding', 'onboarding'),
      page('login', 'login'),
      page('*', 'notFound'),
    ],
  },
];

/**
 * Starts loading the chunk of the screen `pathname` shows, before React renders: otherwise the first
 * screen's chunk is only asked for once the main chunk has run and the router has rendered. A visitor
 * who has not finished onboarding is sent to /onboarding (RootLayout), so that chunk is the one loaded.
 */
export function preloadRoute(pathname: string, onboarded: boolean): Promise<unknown> | null {
  const target = onboarded || isOnboardingExempt(pathname) ? pathname : '/onboarding';
  const key = matchRoutes(routes, target)
    ?.map((m) => routePages.get(m.route))
    .findLast((k) => k !== undefined);
  // Errors are not reported here: React.lazy runs the same import and the route's error boundary shows them.
  return key ? loadPage(key).catch(() => {}) : null;
}

export function createAppRouter() {
  return createBrowserRouter(routes);
}

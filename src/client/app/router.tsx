import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';

// Each screen is its own chunk: the first paint only pays for the shell and the screen it shows.
const pages = {
  home: lazy(() => import('../home/HomePage')),
  myList: lazy(() => import('../lists/MyListPage')),
  queue: lazy(() => import('../lists/QueuePage')),
  active: lazy(() => import('../lists/ActivePage')),
  completed: lazy(() => import('../lists/CompletedPage')),
  campaigns: lazy(() => import('../campaigns/CampaignListPage')),
  campaign: lazy(() => import('../campaigns/CampaignDetailPage')),
  task: lazy(() => import('../tasks/TaskDetailPage')),
  contacts: lazy(() => import('../contacts/ContactsPage')),
  notifications: lazy(() => import('../notifications/NotificationsPage')),
  preferences: lazy(() => import('../preferences/PreferencesPage')),
  onboarding: lazy(() => import('../onboarding/OnboardingPage')),
  login: lazy(() => import('../login/LoginPage')),
  notFound: lazy(() => import('./NotFoundPage')),
} satisfies Record<string, LazyExoticComponent<ComponentType>>;

/** A route with its own error boundary, so one broken screen never blanks the app. */
function page(path: string, Page: LazyExoticComponent<ComponentType>, index = false): RouteObject {
  const element = <Page />;
  return index
    ? { index: true, element, errorElement: <RouteError /> }
    : { path, element, errorElement: <RouteError /> };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      page('/', pages.home, true),
      page('my-list', pages.myList),
      page('queue', pages.queue),
      page('active', pages.active),
      page('completed', pages.completed),
      page('campaigns', pages.campaigns),
      page('campaigns/:id', pages.campaign),
      page('tasks/:id', pages.task),
      page('contacts', pages.contacts),
      page('notifications', pages.notifications),
      page('preferences', pages.preferences),
      page('onboarding', pages.onboarding),
      page('login', pages.login),
      page('*', pages.notFound),
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

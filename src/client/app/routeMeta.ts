import { matchPath } from 'react-router';

export const PRODUCT_NAME = 'Outpost';

/** Pages where the mobile header shows the account button instead of Back (the spec's list). */
export const TOP_LEVEL_PATHS = [
  '/',
  '/queue',
  '/active',
  '/completed',
  '/my-list',
  '/notifications',
] as const;

const TITLES: ReadonlyArray<readonly [pattern: string, title: string]> = [
  ['/', 'Home'],
  ['/my-list', 'My List'],
  ['/queue', 'Queue'],
  ['/active', 'Active'],
  ['/completed', 'Completed'],
  ['/today', 'Today'],
  ['/upcoming', 'Upcoming'],
  ['/calendar', 'Calendar'],
  ['/timeline', 'Timeline'],
  ['/campaigns/:id/timeline', 'Timeline'],
  ['/labels/:name', 'Label'],
  ['/views/new', 'New view'],
  ['/views/:id', 'View'],
  ['/campaigns', 'Campaigns'],
  ['/campaigns/:id', 'Campaign'],
  ['/tasks/:id', 'Task'],
  ['/todos/:id', 'Todo'],
  ['/contacts', 'Contacts'],
  ['/notifications', 'Notifications'],
  ['/preferences', 'Preferences'],
  ['/reports/time', 'Time report'],
  ['/onboarding', 'Welcome'],
  ['/login', 'Sign In'],
  ['/invite/:token', 'Invite'],
  ['/verify-email', 'Verify email'],
  ['/unsubscribe', 'Unsubscribe'],
];

/** The header title of a path; any other path gets the product name. */
export function titleFor(pathname: string): string {
  for (const [pattern, title] of TITLES) if (matchPath(pattern, pathname)) return title;
  return PRODUCT_NAME;
}

export function isTopLevel(pathname: string): boolean {
  return (TOP_LEVEL_PATHS as readonly string[]).includes(pathname.replace(/\/+$/, '') || '/');
}

/** Paths reachable before onboarding is completed or skipped (an invite or a mail's link opens for a newcomer too). */
export function isOnboardingExempt(pathname: string): boolean {
  return (
    matchPath('/login', pathname) !== null ||
    matchPath('/onboarding', pathname) !== null ||
    matchPath('/invite/:token', pathname) !== null ||
    // A mail's link works for a browser that never finished (or started) onboarding too.
    matchPath('/verify-email', pathname) !== null ||
    matchPath('/unsubscribe', pathname) !== null
  );
}

/** The parent id implied by the page (for the add button on a campaign or task page). */
export function parentIdFromPath(pathname: string): number | null {
  const match = matchPath('/campaigns/:id', pathname) ?? matchPath('/tasks/:id', pathname);
  const id = Number(match?.params.id);
  return match && Number.isInteger(id) ? id : null;
}

export const NAV_LINKS = [
  { to: '/', label: 'Home', short: 'Home' },
  { to: '/my-list', label: 'My List', short: 'My List' },
  { to: '/queue', label: 'Queue', short: 'Queue' },
  { to: '/active', label: 'Active', short: 'Active' },
  { to: '/completed', label: 'Completed', short: 'Done' },
] as const;

/**
 * The header's links on tablets and desktops: the spec's five, then Today and Upcoming (ARCHITECTURE
 * §5), Calendar after them (issue 53), then Campaigns (otherwise the campaign list is reached only from a campaign's Back link). The
 * phone's bar keeps the spec's five; Home's Today card leads there on a phone.
 */
export const DESKTOP_NAV_LINKS = [
  ...NAV_LINKS,
  { to: '/today', label: 'Today', short: 'Today' },
  { to: '/upcoming', label: 'Upcoming', short: 'Upcoming' },
  { to: '/calendar', label: 'Calendar', short: 'Calendar' },
  { to: '/campaigns', label: 'Campaigns', short: 'Campaigns' },
] as const;

/** Pages about items, where the phone's add button belongs (not on settings or sign-in). */
export function showsAddButton(pathname: string): boolean {
  return (
    (isTopLevel(pathname) && pathname !== '/notifications') ||
    ['/today', '/upcoming', '/labels/:name', '/campaigns', '/campaigns/:id', '/tasks/:id'].some(
      (p) => matchPath(p, pathname) !== null,
    )
  );
}

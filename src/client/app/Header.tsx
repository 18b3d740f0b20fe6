import { ArrowLeft, Bell, House, LogIn, Search, Settings } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { Avatar, Button, IconButton } from '../components/ui';
import { cn, focusRing } from '../components/ui/cn';
import {
  closedTriggerAria,
  lazyModule,
  type MenuIntent,
  placeholderTriggerHandlers,
} from '../components/ui/lazyMenu';
import { useUnreadCount } from '../notifications/unreadCount';
import { uiStore } from '../stores/uiStore';
import { useRunningTimer } from '../time/timerStore';
import { BrandMark } from './Brand';
import { useAuthState, useDoor, useSignedInUser } from './door';
import { DESKTOP_NAV_LINKS, isTopLevel, PRODUCT_NAME, titleFor } from './routeMeta';

const SCROLL_BORDER_PX = 10;

// With the data layer, not before it: its live reads are the data layer (see TimerFeed.tsx).
const TimerFeed = lazy(() => import('../time/TimerFeed').then((m) => ({ default: m.TimerFeed })));
// Only while a timer runs, which only the feed above can report: most screens never load it.
const TimeWatch = lazy(() => import('../time/TimeWatch').then((m) => ({ default: m.TimeWatch })));
// The saved views' menu reads the device's list, so it comes with the data layer, for a signed-in person.
const ViewsNav = lazy(() => import('../views/ViewsNav'));

/** True once the page has scrolled past the spec's 10 px, for the header's border. */
function useScrolledPast(threshold: number): boolean {
  // Read while rendering, not in the mount effect: then the page's fresh layout is not forced early.
  const [past, setPast] = useState(() => typeof window !== 'undefined' && window.scrollY > threshold);
  useEffect(() => {
    const onScroll = () => setPast(window.scrollY > threshold);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold]);
  return past;
}

/** Cmd on Apple keyboards, Ctrl elsewhere, for the search hint. */
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function Header() {
  const scrolled = useScrolledPast(SCROLL_BORDER_PX);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const user = useSignedInUser();
  const title = titleFor(pathname);
  const onHome = pathname === '/';
  const timing = useRunningTimer() !== null;
  const dataLoaded = useDoor().client !== null;

  const goBack = () => {
    // A deep link has no history inside the app; Back then goes Home rather than off-site.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/');
  };

  return (
    <header
      className={cn(
        'sticky top-0 z-40 border-b bg-white/90 pt-[env(safe-area-inset-top)] backdrop-blur-md transition-colors duration-150 motion-reduce:transition-none dark:bg-zinc-950/85',
        scrolled ? 'border-zinc-200 dark:border-zinc-800' : 'border-transparent',
      )}
    >
      {dataLoaded ? (
        <Suspense fallback={null}>
          <TimerFeed />
        </Suspense>
      ) : null}
      {/* Phone */}
      <div className="grid h-14 grid-cols-[3rem_1fr_auto] items-center gap-1 px-2 md:hidden">
        <div className="flex justify-start">
          {isTopLevel(pathname) ? (
            <IconButton
              label={user ? 'Account' : 'Account and sign in'}
              onClick={() => uiStore.getState().setAccountSheetOpen(true)}
              icon={user ? <Avatar name={user.name} size="sm" /> : <LogIn />}
            />
          ) : (
            <IconButton label="Back" onClick={goBack} icon={<ArrowLeft />} />
          )}
        </div>
        <div className="flex min-w-0 items-center justify-center">
          {onHome ? (
            <Link
              to="/"
              className={cn('flex items-center gap-2 rounded-md px-1 text-base font-semibold', focusRing)}
            >
              <BrandMark className="size-6" />
              {/* A running timer takes the room of the name on a phone (the mark and Home stay). */}
              <span className={timing ? 'sr-only' : undefined}>{PRODUCT_NAME}</span>
              <House aria-label="Home" className="size-4 text-zinc-500 dark:text-zinc-400" />
            </Link>
          ) : (
            // Not a heading: each page has its own h1; this is the bar's label.
            <span className="truncate text-base font-semibold">{title}</span>
          )}
        </div>
        <div className="flex items-center justify-end">
          {timing ? (
            <Suspense fallback={null}>
              <TimeWatch compact />
            </Suspense>
          ) : null}
          {dataLoaded && user ? (
            <Suspense fallback={null}>
              <ViewsNav compact />
            </Suspense>
          ) : null}
          <IconButton
            label="Search"
            onClick={() => uiStore.getState().setSearchOpen(true)}
            icon={<Search />}
          />
          <NotificationsLink />
        </div>
      </div>

      {/* Tablet and desktop */}
      <div className="mx-auto hidden h-16 max-w-6xl items-center gap-3 px-4 md:flex lg:gap-4 lg:px-6">
        <Link
          to="/"
          className={cn(
            'flex shrink-0 items-center gap-2 rounded-md text-base font-semibold tracking-tight whitespace-nowrap',
            focusRing,
          )}
        >
          <BrandMark />
          {/* Below 1536 px the mark alone, so the nine nav links and the account fit on one line. */}
          <span className="sr-only 2xl:not-sr-only">{PRODUCT_NAME}</span>
        </Link>
        {/* Nine links: on a narrow tablet the nav scrolls sideways (Tab brings a link into view), never the page. */}
        <nav
          aria-label="Main"
          className="-my-1 flex min-w-0 items-center gap-0.5 overflow-x-auto px-1 py-1 [scrollbar-width:none] xl:gap-1"
        >
          {DESKTOP_NAV_LINKS.map((link) => [
            <NavLink
              key={link.to}
              to={link.to}
              end={link.to === '/'}
              className={({ isActive }) =>
                cn(
                  'rounded-md px-2.5 py-1.5 text-sm font-medium whitespace-nowrap transition-colors duration-150 motion-reduce:transition-none xl:px-3',
                  focusRing,
                  isActive
                    ? 'bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-50'
                    : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-900 dark:hover:text-zinc-100',
                )
              }
            >
              {link.label}
            </NavLink>,
            // The 'Views' group sits after Today and Upcoming (DESIGN 'Views').
            link.to === '/upcoming' && dataLoaded && user ? (
              <Suspense key="views" fallback={null}>
                <ViewsNav />
              </Suspense>
            ) : null,
          ])}
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-1 lg:gap-2">
          {timing ? (
            <Suspense fallback={null}>
              <TimeWatch />
            </Suspense>
          ) : null}
          <button
            type="button"
            onClick={() => uiStore.getState().setSearchOpen(true)}
            className={cn(
              'hidden h-9 shrink-0 items-center gap-2 rounded-lg border border-zinc-200 px-3 text-sm whitespace-nowrap text-zinc-500 hover:bg-zinc-50 xl:flex dark:border-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-900',
              focusRing,
            )}
          >
            <Search className="size-4" aria-hidden />
            <span>Search</span>
            {/* Eight nav links leave no room for the hint on a 1280 px screen: it shows from 2xl. */}
            <kbd className="ml-4 hidden rounded border border-zinc-200 px-1.5 font-sans text-xs 2xl:inline dark:border-zinc-700">
              {isMac ? '⌘K' : 'Ctrl K'}
            </kbd>
          </button>
          <IconButton
            className="xl:hidden"
            label="Search"
            onClick={() => uiStore.getState().setSearchOpen(true)}
            icon={<Search />}
          />
          <NotificationsLink />
          {user ? <AccountMenu /> : <GuestActions />}
        </div>
      </div>
    </header>
  );
}

function NotificationsLink() {
  const unread = useUnreadCount();
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <NavLink
      to="/notifications"
      aria-label={label}
      title={label}
      className={({ isActive }) =>
        cn(
          'inline-flex size-10 items-center justify-center rounded-full hover:bg-zinc-100 dark:hover:bg-zinc-800',
          isActive
            ? 'text-indigo-600 dark:text-indigo-400'
            : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
          focusRing,
        )
      }
    >
      <span className="relative inline-flex">
        <Bell className="size-5" aria-hidden />
        {unread > 0 ? (
          <span
            aria-hidden
            data-testid="unread-count"
            className="absolute -top-1.5 -right-2 min-w-4 rounded-full bg-red-600 px-1 text-center text-[10px] leading-4 font-semibold text-white tabular-nums"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </span>
    </NavLink>
  );
}

function GuestActions() {
  return (
    <>
      <Link
        to="/preferences"
        aria-label="Preferences"
        title="Preferences"
        className={cn(
          'inline-flex size-10 items-center justify-center rounded-full text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
          focusRing,
        )}
      >
        <Settings className="size-5" aria-hidden />
      </Link>
      <span className="px-1 text-sm whitespace-nowrap text-zinc-500 dark:text-zinc-400">Local only</span>
      <Button asChild size="sm">
        <Link to="/login">Sign In</Link>
      </Button>
    </>
  );
}

// The Radix menu (and its positioning and focus libraries) is not part of the first screen: the header
// shows a button with the same look, name and ARIA, and the menu loads on its first press.
const accountMenuModule = lazyModule(() => import('./AccountMenu'));

function AccountMenu() {
  const user = useAuthState((s) => s.user);
  const [module, setModule] = useState(accountMenuModule.current);
  const [intent, setIntent] = useState<MenuIntent | null>(null);

  if (module) {
    const Menu = module.default;
    return <Menu intent={intent} />;
  }

  const open = (next: MenuIntent) => {
    if (intent) return;
    setIntent(next);
    accountMenuModule.load().then(setModule, () => setIntent(null));
  };

  return (
    <button
      type="button"
      aria-label="Account menu"
      {...closedTriggerAria}
      className={cn('rounded-full', focusRing)}
      {...placeholderTriggerHandlers(open)}
    >
      <Avatar name={user.name} size="md" />
    </button>
  );
}

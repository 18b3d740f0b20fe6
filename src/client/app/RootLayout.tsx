import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useOnboarding } from '../stores/onboardingStore';
import { useUi } from '../stores/uiStore';
import { BottomBar, Fab } from './BottomBar';
import { ConnectivityBadge } from './ConnectivityBadge';
import { useDataLayer } from './door';
import { GlobalOverlays } from './GlobalOverlays';
import { useGlobalShortcuts } from './GlobalShortcuts';
import { Header } from './Header';
import { PageFallback } from './PageFallback';
import { useReturnAfterSignIn } from './returnAfterSignIn';
import { isOnboardingExempt, showsAddButton } from './routeMeta';
import { Toaster } from './Toaster';
import { useMountedOnce } from './useMountedOnce';
import { useScrollRestoration } from './useScrollRestoration';

// The phone's account panel loads when it first opens: it is never part of the first paint.
const AccountSheet = lazy(() => import('./AccountSheet').then((m) => ({ default: m.AccountSheet })));

/** The app shell: header, content, bottom bar, add button, badge, toasts and global dialogs. */
export function RootLayout() {
  const { pathname } = useLocation();
  const onboarded = useOnboarding((s) => s.hasCompletedOnboarding);
  useGlobalShortcuts();
  useScrollRestoration();
  useReturnAfterSignIn();
  useDataLayer(!isOnboardingExempt(pathname));
  const addButton = showsAddButton(pathname);
  const accountSheetMounted = useMountedOnce(useUi((s) => s.accountSheetOpen));

  if (!onboarded && !isOnboardingExempt(pathname)) return <Navigate to="/onboarding" replace />;

  // The tutorial is a modal card over a quiet backdrop; the shell around it would only distract.
  if (pathname === '/onboarding') {
    return (
      <>
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
        <Toaster />
        <GlobalOverlays />
      </>
    );
  }

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <Header />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-[720px] flex-1 px-4 pt-4 pb-[calc(4rem+env(safe-area-inset-bottom)+6rem)] outline-none md:px-6 md:pt-8 md:pb-16 lg:max-w-[880px]"
      >
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      <BottomBar />
      {addButton ? <Fab /> : null}
      <ConnectivityBadge aboveFab={addButton} />
      {accountSheetMounted ? (
        <Suspense fallback={null}>
          <AccountSheet />
        </Suspense>
      ) : null}
      <Toaster />
      <GlobalOverlays />
    </div>
  );
}

import { CircleCheck, House, Inbox, ListTodo, type LucideIcon, Plus, Zap } from 'lucide-react';
import { NavLink, useLocation } from 'react-router';
import { cn, focusRing } from '../components/ui/cn';
import { uiStore } from '../stores/uiStore';
import { NAV_LINKS, parentIdFromPath } from './routeMeta';

const ICONS: Record<(typeof NAV_LINKS)[number]['to'], LucideIcon> = {
  '/': House,
  '/my-list': ListTodo,
  '/queue': Inbox,
  '/active': Zap,
  '/completed': CircleCheck,
};

/** The phone's tab bar: Home, My List, Queue, Active, Done. */
export function BottomBar() {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur-md md:hidden dark:border-zinc-800 dark:bg-zinc-950/95"
    >
      <ul className="grid h-16 grid-cols-5">
        {NAV_LINKS.map((link) => {
          const Icon = ICONS[link.to];
          return (
            <li key={link.to} className="flex">
              <NavLink
                to={link.to}
                end={link.to === '/'}
                className={({ isActive }) =>
                  cn(
                    'flex flex-1 flex-col items-center justify-center gap-1 rounded-lg text-[11px] font-medium transition-colors duration-150 motion-reduce:transition-none',
                    focusRing,
                    'focus-visible:ring-offset-0',
                    isActive
                      ? 'text-indigo-600 dark:text-indigo-400'
                      : 'text-zinc-500 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
                  )
                }
              >
                <Icon aria-hidden className="size-5" />
                {link.short}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The phone's floating add button; on a campaign or task page the new item goes under it. */
export function Fab() {
  const { pathname } = useLocation();
  return (
    <button
      type="button"
      aria-label="Create new item"
      title="Create new item"
      onClick={() => uiStore.getState().openCreate(parentIdFromPath(pathname))}
      className={cn(
        'fixed right-4 bottom-[calc(4rem+env(safe-area-inset-bottom)+1rem)] z-40 inline-flex size-14 items-center justify-center rounded-full bg-indigo-600 text-white shadow-lg shadow-indigo-600/25 transition-transform duration-150 hover:bg-indigo-700 active:scale-95 motion-reduce:transition-none md:hidden dark:bg-indigo-600 dark:shadow-black/40 dark:hover:bg-indigo-400',
        focusRing,
      )}
    >
      <Plus className="size-6" aria-hidden />
    </button>
  );
}

import { Bookmark, ChevronDown, Plus } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useDoor } from '../app/door';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  IconButton,
} from '../components/ui';
import { cn, focusRing } from '../components/ui/cn';
import { useSavedViews } from './queries';

/**
 * Fetches the views list when the navigation shows, when the page comes back into view and when the
 * connection returns, so a view saved or shared on another device arrives (kept on the device for
 * offline; a failed fetch keeps the last list).
 */
function useRefreshViews(owner: boolean): void {
  const { send } = useDoor();
  useEffect(() => {
    if (!owner) return;
    const refresh = () => {
      if (document.visibilityState === 'visible' && navigator.onLine)
        void send('views.refresh').catch(() => undefined);
    };
    refresh();
    document.addEventListener('visibilitychange', refresh);
    window.addEventListener('online', refresh);
    return () => {
      document.removeEventListener('visibilitychange', refresh);
      window.removeEventListener('online', refresh);
    };
  }, [owner, send]);
}

/**
 * The navigation's 'Views' group (DESIGN 'Views'), after Today and Upcoming: each saved view with a
 * bookmark icon, then 'New view'. On a phone a bookmark button opens the same menu.
 */
export default function ViewsNav({ compact = false }: { compact?: boolean }) {
  // The header mounts the phone's navigation and the wide one together (CSS shows one): the wide one
  // fetches for both, or every screen opened asked for the list twice.
  useRefreshViews(!compact);
  const views = useSavedViews() ?? [];
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const active = pathname.startsWith('/views/');
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {compact ? (
          <IconButton label="Views" icon={<Bookmark />} />
        ) : (
          <button
            type="button"
            className={cn(
              'inline-flex items-center gap-1 rounded-md px-2.5 py-1.5 text-sm font-medium whitespace-nowrap xl:px-3',
              focusRing,
              active
                ? 'bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-50'
                : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-900 dark:hover:text-zinc-100',
            )}
          >
            Views
            <ChevronDown className="size-3.5" aria-hidden />
          </button>
        )}
      </DropdownMenuTrigger>
      <DropdownMenuContent align={compact ? 'end' : 'start'} className="min-w-56">
        <DropdownMenuLabel>Views</DropdownMenuLabel>
        <DropdownMenuGroup>
          {views.length === 0 ? (
            <p className="px-2 py-1.5 text-sm text-zinc-500 dark:text-zinc-400">No saved views yet</p>
          ) : (
            views.map((view) => (
              <DropdownMenuItem key={view.id} onSelect={() => navigate(`/views/${view.id}`)}>
                <Bookmark className="size-4 text-zinc-500 dark:text-zinc-400" aria-hidden />
                <span className="truncate">{view.name}</span>
                {view.campaign_id !== null ? (
                  <span className="ml-auto text-xs text-zinc-500 dark:text-zinc-400">Shared</span>
                ) : null}
              </DropdownMenuItem>
            ))
          )}
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate('/views/new')}>
          <Plus className="size-4" aria-hidden />
          New view
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

import { LogOut, Settings, Timer } from 'lucide-react';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import {
  Avatar,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../components/ui';
import { cn, focusRing } from '../components/ui/cn';
import { type MenuIntent, useReplayMenuIntent } from '../components/ui/lazyMenu';
import { useAuthState } from './door';
import { useGuardedLogout } from './useGuardedLogout';

/** The desktop header's account menu (Radix DropdownMenu); loaded on the first press of its button. */
export default function AccountMenu({ intent }: { intent: MenuIntent | null }) {
  const navigate = useNavigate();
  // Log out asks first when changes are not on the server yet (the dialog outlives the menu).
  const guarded = useGuardedLogout();
  const user = useAuthState((s) => s.user);
  const trigger = useRef<HTMLButtonElement>(null);
  useReplayMenuIntent(trigger, intent);

  return (
    <>
      {/* Not modal: a modal menu hides the page with aria-hidden while its links stay focusable (axe
        aria-hidden-focus); the menu still closes on Escape and on a click outside. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <button
            ref={trigger}
            type="button"
            aria-label="Account menu"
            className={cn('rounded-full', focusRing)}
          >
            <Avatar name={user.name} size="md" />
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuLabel>
            <span className="block font-medium">{user.name}</span>
            <span className="block text-zinc-500 dark:text-zinc-400">{user.phone}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => navigate('/preferences')}>
            <Settings aria-hidden />
            Preferences
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => navigate('/reports/time')}>
            <Timer aria-hidden />
            Time report
          </DropdownMenuItem>
          <DropdownMenuItem destructive onSelect={() => void guarded.logout()}>
            <LogOut aria-hidden />
            Log out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {guarded.dialog}
    </>
  );
}

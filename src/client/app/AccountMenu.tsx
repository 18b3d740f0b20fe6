import { LogOut, Settings } from 'lucide-react';
import { useEffect, useRef } from 'react';
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
import { useAuthState, useServices } from './services';

/**
 * What opened the menu before this module had loaded: the header's placeholder button records the
 * event, and the real trigger replays it once mounted, so the menu opens exactly as Radix opens it
 * (pointer: content focused; keyboard: first item focused).
 */
export type AccountMenuIntent =
  | { kind: 'pointer'; focus: boolean }
  | { kind: 'keyboard'; key: 'Enter' | ' ' | 'ArrowDown' };

/** The desktop header's account menu (Radix DropdownMenu); loaded on the first press of its button. */
export default function AccountMenu({ intent }: { intent: AccountMenuIntent | null }) {
  const navigate = useNavigate();
  const { auth } = useServices();
  const user = useAuthState((s) => s.user);
  const trigger = useRef<HTMLButtonElement>(null);
  const replayed = useRef(false);

  useEffect(() => {
    // Runs after the Radix root's own effects (children first), so its keyboard tracking is listening.
    const button = trigger.current;
    if (!intent || !button || replayed.current) return;
    replayed.current = true;
    if (intent.kind === 'keyboard') {
      button.focus({ preventScroll: true });
      button.dispatchEvent(
        new KeyboardEvent('keydown', { key: intent.key, bubbles: true, cancelable: true }),
      );
    } else {
      if (intent.focus) button.focus({ preventScroll: true });
      button.dispatchEvent(
        new PointerEvent('pointerdown', { button: 0, pointerType: 'mouse', bubbles: true, cancelable: true }),
      );
    }
  }, [intent]);

  return (
    // Not modal: a modal menu hides the page with aria-hidden while its links stay focusable (axe
    // aria-hidden-focus); the menu still closes on Escape and on a click outside.
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
        <DropdownMenuItem destructive onSelect={() => void auth.getState().logout()}>
          <LogOut aria-hidden />
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

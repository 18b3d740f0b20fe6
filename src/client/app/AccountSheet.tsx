import { CloudOff, LogIn, LogOut, Settings, Users } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Avatar, Button, Sheet, SheetContent } from '../components/ui';
import { uiStore, useUi } from '../stores/uiStore';
import { useSignedInUser } from './door';
import { useGuardedLogout } from './useGuardedLogout';

/** The phone's account panel, opened from the header's avatar or sign-in icon. */
export function AccountSheet() {
  const open = useUi((s) => s.accountSheetOpen);
  const user = useSignedInUser();
  // Log out asks first when changes are not on the server yet (the dialog outlives the sheet).
  const guarded = useGuardedLogout();
  const navigate = useNavigate();
  const close = () => uiStore.getState().setAccountSheetOpen(false);
  const go = (to: string) => {
    close();
    navigate(to);
  };

  return (
    <>
      <Sheet open={open} onOpenChange={(o) => uiStore.getState().setAccountSheetOpen(o)}>
        <SheetContent side="bottom" title="Account">
          <div className="flex items-center gap-3 rounded-xl bg-zinc-50 p-3 dark:bg-zinc-800/60">
            {user ? (
              <Avatar name={user.name} size="lg" />
            ) : (
              <span className="flex size-12 items-center justify-center rounded-full bg-zinc-200 text-zinc-600 dark:bg-zinc-700 dark:text-zinc-300">
                <CloudOff className="size-5" aria-hidden />
              </span>
            )}
            <div className="min-w-0">
              {user ? (
                <>
                  <p className="truncate font-medium">{user.name}</p>
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">
                    Signed in as{' '}
                    <span className="font-medium text-zinc-900 dark:text-zinc-100">{user.phone}</span>
                  </p>
                </>
              ) : (
                <>
                  <p className="font-medium">Local only mode</p>
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">You are using the app locally</p>
                </>
              )}
            </div>
          </div>
          <div className="mt-4 flex flex-col gap-2">
            <Button variant="outline" size="lg" className="justify-start" onClick={() => go('/preferences')}>
              <Settings aria-hidden />
              Preferences
            </Button>
            {user ? (
              <>
                <Button variant="outline" size="lg" className="justify-start" onClick={() => go('/contacts')}>
                  <Users aria-hidden />
                  Contacts
                </Button>
                <Button
                  variant="ghost"
                  size="lg"
                  className="justify-start text-red-600 hover:bg-red-50 hover:text-red-700 dark:text-red-400 dark:hover:bg-red-950/50 dark:hover:text-red-300"
                  onClick={() => {
                    close();
                    void guarded.logout();
                  }}
                >
                  <LogOut aria-hidden />
                  Log out
                </Button>
              </>
            ) : (
              <Button size="lg" onClick={() => go('/login')}>
                <LogIn aria-hidden />
                Sign In to Sync
              </Button>
            )}
          </div>
        </SheetContent>
      </Sheet>
      {guarded.dialog}
    </>
  );
}

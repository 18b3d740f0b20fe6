import { useState } from 'react';
import { toast, useSignedInUser } from '../app/door';
import { Badge } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import type { PushState } from '../stores/notificationStore';
import { usePushToggle } from './mutations';
import { usePushState } from './queries';

const STATE_TEXT: Record<PushState, { badge: string; text: string }> = {
  on: { badge: 'On', text: 'This device gets a notification even when Outpost is closed.' },
  off: {
    badge: 'Off',
    text: 'Turn on to get notifications and reminders on this device even when Outpost is closed.',
  },
  blocked: {
    badge: 'Blocked by the browser',
    text: 'Notifications are blocked for this site. Allow them in the browser’s site settings, then come back.',
  },
  unsupported: {
    badge: 'Not supported',
    text: 'This browser cannot receive push notifications. Reminders still show while Outpost is open.',
  },
  unknown: { badge: 'Checking…', text: 'Checking what this browser allows…' },
};

/** Preferences › Notifications: Web Push on this device (permission, subscription) and its state. */
export function PushPreferences() {
  const user = useSignedInUser();
  const state = usePushState();
  const { enable, disable } = usePushToggle();
  const [busy, setBusy] = useState(false);
  const { badge, text } = STATE_TEXT[state];

  const run = async (action: () => Promise<PushState>) => {
    setBusy(true);
    try {
      const next = await action();
      if (next === 'on')
        toast({ title: 'Push notifications on', description: 'This device will be notified.' });
    } catch (error) {
      toast({
        title: 'Could not turn on push notifications',
        description: error instanceof Error ? error.message : 'Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-2 text-sm">
        <span className="font-medium">Push notifications</span>
        <Badge tone={state === 'on' ? 'green' : state === 'blocked' ? 'red' : 'neutral'}>{badge}</Badge>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
        {user ? text : 'Sign in to get push notifications. Reminders still show while Outpost is open.'}
      </p>
      {user && (state === 'off' || state === 'on') ? (
        <div>
          {state === 'off' ? (
            <Button onClick={() => void run(enable)} disabled={busy}>
              {busy ? 'Turning on…' : 'Turn on push notifications'}
            </Button>
          ) : (
            <Button variant="outline" onClick={() => void run(disable)} disabled={busy}>
              Turn off push notifications
            </Button>
          )}
        </div>
      ) : null}
    </div>
  );
}

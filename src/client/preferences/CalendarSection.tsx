import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarDays, Copy, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { toast, useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { Button } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Input } from '../components/ui/Input';
import { Section } from '../components/ui/Section';
import type { CalendarLinkState } from '../data/commands/server';
import { useViewer } from '../data/live';

const calendarLinkKey = [SERVER_LIST_KEY, 'calendarLink'] as const;

/** What Preferences knows of the link: the server's state, and the URL when this device made it. */
interface ShownLink extends CalendarLinkState {
  url: string | null;
}

/** 'Nov 27, 2026' in the reader's language: the day a link was made. */
function madeOn(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/**
 * Preferences › Calendar (ARCHITECTURE §4 'Calendar feed'): a secret .ics URL that Google, Apple
 * and Outlook calendars subscribe to. The server keeps only its hash (F9): the device that made the
 * link shows it again with Copy; another device says a link is active and since when. A new one is a
 * separate action behind a warning, as it stops the old one for every calendar using it (F10).
 */
export function CalendarSection() {
  const { send } = useDoor();
  const viewer = useViewer();
  const userId = viewer.user.id;
  const queryClient = useQueryClient();
  const fieldId = useId();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const current = useQuery({
    queryKey: [...calendarLinkKey, userId],
    queryFn: async (): Promise<ShownLink> => {
      const state = await send('server.calendarLinkState');
      const url = state.active
        ? await send('device.calendarLink', { userId, createdAt: state.created_at })
        : null;
      return { ...state, url };
    },
    enabled: !viewer.isGuest && viewer.online,
    staleTime: 60_000,
  });
  const link: ShownLink | undefined = current.data;
  const url = link?.url ?? null;

  const make = async () => {
    setBusy(true);
    try {
      const made = await send('server.calendarUrl');
      // The URL is answered this once: this device keeps it to show again (the server cannot).
      await send('device.keepCalendarLink', { userId, url: made.url, createdAt: made.created_at }).catch(
        () => undefined,
      );
      queryClient.setQueryData<ShownLink>([...calendarLinkKey, userId], made);
    } catch {
      toast({
        title: 'Could not make the link',
        description: 'Check your connection and try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: 'Paste it into your calendar as a new subscription.' });
    } catch {
      // No clipboard (an insecure page, a refused permission): the field is selected to copy by hand.
      (document.getElementById(fieldId) as HTMLInputElement | null)?.select();
    }
  };

  const warned = (
    <ConfirmDialog
      open={confirming}
      onOpenChange={setConfirming}
      title="Make a new calendar link?"
      description="The link in use stops working at once: every calendar subscribed to it stops updating until you subscribe again with the new link."
      confirmLabel="Make a new link"
      tone="danger"
      onConfirm={() => void make()}
    />
  );

  let body: React.ReactNode;
  if (current.isPending && current.fetchStatus !== 'idle') {
    body = <p className="text-sm text-zinc-600 dark:text-zinc-400">Looking for your link…</p>;
  } else if (url === null && link?.active && link.created_at) {
    // Made on another device (or before this device's data was cleared): only that one has the URL.
    body = (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-zinc-900 dark:text-zinc-100">
          A calendar link is active since {madeOn(link.created_at)}.
        </p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Outpost keeps the link only on the device that made it. To use it here, make a new link: the link in
          use stops working.
        </p>
        <Button variant="outline" onClick={() => setConfirming(true)} disabled={busy} className="self-start">
          <RefreshCw aria-hidden />
          New link…
        </Button>
      </div>
    );
  } else if (url === null) {
    body = (
      <div className="flex flex-col gap-3">
        <Button variant="outline" onClick={() => void make()} disabled={busy} className="self-start">
          <CalendarDays aria-hidden />
          {busy ? 'Making the link…' : 'Subscribe in your calendar'}
        </Button>
        {current.isError ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Could not check for a link you made before. Reopen Preferences when online before making one.
          </p>
        ) : null}
      </div>
    );
  } else {
    body = (
      <div className="flex flex-col gap-3">
        <label htmlFor={fieldId} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
          Your calendar link
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={fieldId}
            readOnly
            value={url}
            onFocus={(event) => event.currentTarget.select()}
            className="font-mono text-xs md:text-xs"
          />
          <Button onClick={() => void copy()} className="shrink-0">
            <Copy aria-hidden />
            Copy link
          </Button>
        </div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Add it as a subscription: ‘From URL’ in Google Calendar, ‘New Calendar Subscription’ in Apple
          Calendar, ‘Subscribe from web’ in Outlook. Anyone with the link sees your dated items, so keep it to
          yourself.
        </p>
        <Button variant="ghost" onClick={() => setConfirming(true)} disabled={busy} className="self-start">
          <RefreshCw aria-hidden />
          New link…
        </Button>
      </div>
    );
  }

  return (
    <Section
      id="pref-calendar"
      title="Calendar"
      description="See every item with a due date in Google, Apple or Outlook Calendar, updated as you work."
    >
      {body}
      {warned}
    </Section>
  );
}

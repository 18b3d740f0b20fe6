import { CalendarDays, Copy, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { toast, useDoor } from '../app/door';
import { Button } from '../components/ui';
import { Input } from '../components/ui/Input';
import { Section } from '../components/ui/Section';

/**
 * Preferences › Calendar (ARCHITECTURE §4 'Calendar feed'): a secret .ics URL that Google, Apple
 * and Outlook calendars subscribe to. The server keeps only a hash of it, so it is shown once, when
 * made; making a new one stops the old.
 */
export function CalendarSection() {
  const { send } = useDoor();
  const fieldId = useId();
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const make = async () => {
    setBusy(true);
    try {
      setUrl(await send('server.calendarUrl'));
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

  return (
    <Section
      id="pref-calendar"
      title="Calendar"
      description="See every item with a due date in Google, Apple or Outlook Calendar, updated as you work."
    >
      {url === null ? (
        <div className="flex flex-col gap-3">
          <Button variant="outline" onClick={() => void make()} disabled={busy} className="self-start">
            <CalendarDays aria-hidden />
            {busy ? 'Making the link…' : 'Subscribe in your calendar'}
          </Button>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            A link you made before keeps working until you make a new one.
          </p>
        </div>
      ) : (
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
            Calendar, ‘Subscribe from web’ in Outlook. Anyone with the link sees your dated items, so keep it
            to yourself.
          </p>
          <Button variant="ghost" onClick={() => void make()} disabled={busy} className="self-start">
            <RefreshCw aria-hidden />
            Make a new link (the old one stops working)
          </Button>
        </div>
      )}
    </Section>
  );
}

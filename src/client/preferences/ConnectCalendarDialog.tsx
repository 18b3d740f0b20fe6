import { CalendarCheck, Copy, TriangleAlert } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { type ApiTokenCreated, TOKEN_NAME_MAX } from '../../shared/tokens';
import { toast, useAuthState, useDoor } from '../app/door';
import { Button } from '../components/ui';
import { Dialog, DialogContent, DialogFooter } from '../components/ui/Dialog';
import { Field } from '../components/ui/Field';
import { Input } from '../components/ui/Input';

/** How long a calendar app's token lasts: a year, so a phone does not lose its tasks every quarter. */
const CALENDAR_TOKEN_DAYS = 365;

/** The CalDAV address of this server (ARCHITECTURE §4 'CalDAV'): the page's origin and /dav/. */
export const caldavUrl = (origin: string) => `${origin}/dav/`;

/** One read-only value with its label and a Copy button (the field is selected when there is no clipboard). */
function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: `${label} copied` });
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className={secret ? 'font-mono text-xs md:text-xs' : undefined}
        />
        <Button
          variant="outline"
          onClick={() => void copy()}
          className="shrink-0"
          aria-label={`Copy ${label}`}
        >
          <Copy aria-hidden />
          Copy
        </Button>
      </div>
    </div>
  );
}

/** Short steps for the apps people use, each behind its own disclosure. */
function AppSteps() {
  const steps: { app: string; lines: string[] }[] = [
    {
      app: 'Apple Reminders and Calendar (iPhone, iPad, Mac)',
      lines: [
        'Settings › Apps › Calendar (or Reminders) › Calendar Accounts › Add Account › Other › Add CalDAV Account.',
        'Server: the server URL above; User Name and Password: the two values above.',
        'Turn on Reminders for the account: each campaign is a list, and “Outpost” holds the rest.',
      ],
    },
    {
      app: 'Android: DAVx⁵ with Tasks.org or jtx Board',
      lines: [
        'In DAVx⁵ tap +, choose “Login with URL and user name” and enter the three values above.',
        'Pick the task lists to sync, and Tasks.org or jtx Board as the tasks app (install it first).',
        'Subtasks keep their task: a todo shows under its task.',
      ],
    },
    {
      app: 'Thunderbird',
      lines: [
        'Tasks › New Calendar › On the Network; username: the user name above; location: the server URL above.',
        'Enter the password when asked, then choose the calendars to add (they hold tasks only).',
      ],
    },
  ];
  return (
    <div className="flex flex-col gap-2">
      <h3 className="text-sm font-medium text-zinc-900 dark:text-zinc-100">Set up your app</h3>
      {steps.map(({ app, lines }) => (
        <details
          key={app}
          className="rounded-lg border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800"
        >
          <summary className="cursor-pointer font-medium text-zinc-900 dark:text-zinc-100">{app}</summary>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-zinc-700 dark:text-zinc-300">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ol>
        </details>
      ))}
    </div>
  );
}

/**
 * Preferences › API tokens › 'Connect a calendar app' (issue 67): makes a token with the `caldav`
 * scope only and shows what a calendar app asks for: the server URL (this origin + /dav/), a user
 * name (any works; the person's name is offered) and the token as the password, shown once, with Copy
 * on each, and short steps for Apple, DAVx⁵ and Thunderbird.
 */
export function ConnectCalendarDialog({
  disabled,
  onCreated,
}: {
  disabled: boolean;
  onCreated: (token: ApiTokenCreated) => void;
}) {
  const { send } = useDoor();
  const userName = useAuthState((s) => s.user.name);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('Calendar app');
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return setError('Name the connection after the app or device, such as ‘iPhone’.');
    if (trimmed.length > TOKEN_NAME_MAX)
      return setError(`A name may be at most ${TOKEN_NAME_MAX} characters.`);
    setBusy(true);
    try {
      const token = await send('server.createToken', {
        name: trimmed,
        scopes: ['caldav'],
        expires_in_days: CALENDAR_TOKEN_DAYS,
      });
      setCreated(token);
      setError(null);
      onCreated(token);
    } catch (caught) {
      const status = (caught as { status?: number } | null)?.status;
      setError(
        status === 0
          ? 'You are offline. Connect the app when you are back online.'
          : 'Could not make the connection. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          // The password is shown once: closing the dialog forgets it.
          setCreated(null);
          setName('Calendar app');
          setError(null);
        }
      }}
    >
      <Button variant="outline" disabled={disabled} onClick={() => setOpen(true)} className="self-start">
        <CalendarCheck aria-hidden />
        Connect a calendar app…
      </Button>
      <DialogContent
        title="Connect a calendar app"
        description="Your tasks and todos in Apple Reminders, Tasks.org, jtx Board or Thunderbird, kept in sync both ways."
      >
        {created ? (
          <div className="flex flex-col gap-4" data-testid="caldav-connection">
            <CopyField label="Server URL" value={caldavUrl(window.location.origin)} />
            <CopyField label="User name" value={userName || 'outpost'} />
            <CopyField label="Password" value={created.token} secret />
            <p className="flex gap-2 text-sm text-amber-900 dark:text-amber-200">
              <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
              Copy the password now: it will not be shown again. It opens your tasks to the app and nothing
              else; revoke “{created.name}” below to disconnect it.
            </p>
            <AppSteps />
            <DialogFooter>
              <Button onClick={() => setOpen(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
            <Field
              label="Connection name"
              error={error ?? undefined}
              hint="The app or device, such as ‘iPhone’ or ‘Thunderbird at work’. It lasts a year."
            >
              {(field) => (
                <Input
                  {...field}
                  value={name}
                  maxLength={TOKEN_NAME_MAX + 20}
                  autoComplete="off"
                  onChange={(e) => {
                    setName(e.target.value);
                    setError(null);
                  }}
                />
              )}
            </Field>
            <AppSteps />
            <DialogFooter>
              <Button type="submit" disabled={busy}>
                {busy ? 'Creating…' : 'Create password'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

import { LogIn, Mail, MailCheck, Pencil, Send, Trash2 } from 'lucide-react';
import { Switch } from 'radix-ui';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import {
  EMAIL_KIND_LABELS,
  EMAIL_KINDS,
  type EmailKind,
  type EmailPreferences,
  type EmailState,
  emailAddressSchema,
} from '../../shared/email';
import { toast } from '../app/door';
import { rememberReturn } from '../app/returnAfterSignIn';
import { Badge, Button, Field, Input, inputClasses } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Section } from '../components/ui/Section';
import { useViewer } from '../data/live';
import { serverWords, useEmailMutations, useEmailSettings } from './emailQueries';

const SECTION = {
  id: 'pref-email',
  title: 'Email',
  description: 'Get your notifications by email, and a daily digest of what is overdue and due today.',
} as const;

const quiet = 'text-sm text-zinc-600 dark:text-zinc-400';

/** '8:00' or '8:00 AM': an hour of the day as this person's locale writes it. */
export function hourText(hour: number): string {
  return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(
    new Date(2000, 0, 1, hour, 0),
  );
}

/**
 * Preferences › Email (ARCHITECTURE §4 'Email'): the address and whether it is verified, one switch
 * per kind of notification, the digest's hour and a test mail. A guest is told email needs an account;
 * offline, the last state known this session shows read-only.
 */
export function EmailSection() {
  const viewer = useViewer();
  const { hash } = useLocation();
  // The mails' 'Change the hour' and the verify page link here (#email, #pref-email): this section
  // loads after the page, too late for the browser's own jump to the anchor, so it scrolls itself.
  useEffect(() => {
    if (hash === '#email' || hash === `#${SECTION.id}`)
      document.getElementById(SECTION.id)?.scrollIntoView({ block: 'start' });
  }, [hash]);
  return (
    <Section {...SECTION}>
      {viewer.isGuest ? (
        <div className="flex flex-col items-start gap-3">
          <p className={quiet}>
            Email needs an account: sign in to get your notifications and a daily digest by email.
          </p>
          <Button variant="outline" size="sm" asChild>
            <Link to="/login" onClick={() => rememberReturn('/preferences')}>
              <LogIn aria-hidden />
              Sign in to get email
            </Link>
          </Button>
        </div>
      ) : (
        <SignedInEmail userId={viewer.user.id} online={viewer.online} />
      )}
    </Section>
  );
}

function SignedInEmail({ userId, online }: { userId: number; online: boolean }) {
  const { state, preferences } = useEmailSettings(userId, online);
  const known = state.data;
  const prefs = preferences.data;

  if (!known || !prefs) {
    if (!online)
      return <p className={quiet}>You're offline. Your email settings show when the connection returns.</p>;
    if (state.isError || preferences.isError)
      return (
        <div className="flex flex-col items-start gap-2">
          <p className={quiet}>Could not load your email settings.</p>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              void state.refetch();
              void preferences.refetch();
            }}
          >
            Try again
          </Button>
        </div>
      );
    return (
      <div role="status" aria-label="Loading your email settings…" className="flex flex-col gap-3">
        <div className="h-10 w-full max-w-md animate-pulse rounded-lg bg-zinc-100 motion-reduce:animate-none dark:bg-zinc-800" />
        <div className="h-24 w-full animate-pulse rounded-lg bg-zinc-100 motion-reduce:animate-none dark:bg-zinc-800" />
      </div>
    );
  }

  return <EmailSettings userId={userId} online={online} state={known} prefs={prefs} />;
}

function EmailSettings({
  userId,
  online,
  state,
  prefs,
}: {
  userId: number;
  online: boolean;
  state: EmailState;
  prefs: EmailPreferences;
}) {
  const readOnly = !online;
  return (
    <div className="flex flex-col gap-6">
      {readOnly ? (
        <p className={quiet} data-testid="email-offline">
          You're offline. These are your email settings as last seen; change them when the connection returns.
        </p>
      ) : null}
      {state.sending ? null : (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
          This server does not send email. Ask whoever runs it to set SMTP_URL.
        </p>
      )}
      <AddressPart userId={userId} state={state} readOnly={readOnly} />
      <KindSwitches userId={userId} prefs={prefs} disabled={readOnly || !state.sending} state={state} />
      <DigestPart userId={userId} prefs={prefs} disabled={readOnly || !state.sending} />
      <TestPart userId={userId} state={state} disabled={readOnly || !state.sending} />
    </div>
  );
}

/** The address, its state, and its change, resend and remove. */
function AddressPart({ userId, state, readOnly }: { userId: number; state: EmailState; readOnly: boolean }) {
  const mutations = useEmailMutations(userId);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [busy, setBusy] = useState(false);

  const resend = async () => {
    if (!state.email) return;
    setBusy(true);
    try {
      await mutations.change(state.email);
      toast({ title: 'Link sent again', description: `Open the link we sent to ${state.email}.` });
    } catch (error) {
      toast({
        title: 'Could not send the link',
        description: serverWords(error, 'Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await mutations.remove();
      toast({ title: 'Address removed', description: 'Outpost no longer sends you email.' });
    } catch (error) {
      toast({
        title: 'Could not remove the address',
        description: serverWords(error, 'Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  if (state.email === null || editing) {
    return (
      <AddressForm
        userId={userId}
        initial={state.email ?? ''}
        disabled={readOnly || !state.sending}
        onDone={() => setEditing(false)}
        {...(state.email === null ? {} : { onCancel: () => setEditing(false) })}
      />
    );
  }

  return (
    <div className="flex flex-col gap-3" data-testid="email-address">
      <div className="flex flex-wrap items-center gap-2">
        <Mail aria-hidden className="size-4 shrink-0 text-zinc-500 dark:text-zinc-400" />
        <span className="min-w-0 font-medium break-all text-zinc-900 dark:text-zinc-100">{state.email}</span>
        {state.verified ? (
          <Badge tone="green">
            <MailCheck aria-hidden className="mr-1 inline size-3.5 align-[-2px]" />
            Verified
          </Badge>
        ) : (
          <Badge tone="amber">Not verified</Badge>
        )}
      </div>
      {state.verified ? null : (
        <p className={quiet}>Waiting for you to open the link we sent to {state.email}.</p>
      )}
      <div className="flex flex-wrap gap-2">
        {state.verified ? null : (
          <Button
            variant="outline"
            size="sm"
            disabled={readOnly || busy || !state.sending}
            onClick={() => void resend()}
          >
            <Send aria-hidden />
            Resend the link
          </Button>
        )}
        <Button variant="outline" size="sm" disabled={readOnly || busy} onClick={() => setEditing(true)}>
          <Pencil aria-hidden />
          Change address
        </Button>
        <Button
          variant="ghost"
          size="sm"
          disabled={readOnly || busy}
          onClick={() => setRemoving(true)}
          className="text-red-700! hover:text-red-800! dark:text-red-400! dark:hover:text-red-300!"
        >
          <Trash2 aria-hidden />
          Remove…
        </Button>
      </div>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title="Remove your email address?"
        description={`Outpost stops mailing ${state.email}: no notifications and no digest until you add an address again.`}
        confirmLabel="Remove address"
        tone="danger"
        onConfirm={() => void remove()}
      />
    </div>
  );
}

function AddressForm({
  userId,
  initial,
  disabled,
  onDone,
  onCancel,
}: {
  userId: number;
  initial: string;
  disabled: boolean;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const mutations = useEmailMutations(userId);
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailAddressSchema.safeParse(value);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Enter an email address.');
    setBusy(true);
    try {
      await mutations.change(parsed.data);
      setError(null);
      toast({
        title: 'Check your inbox',
        description: `We sent a link to ${parsed.data}. Open it to verify.`,
      });
      onDone();
    } catch (caught) {
      setError(serverWords(caught, 'Could not change the address. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-3">
      <Field
        label="Email address"
        error={error ?? undefined}
        hint="We send a link to this address to check it is yours."
      >
        {(field) => (
          <Input
            {...field}
            type="email"
            inputMode="email"
            autoComplete="email"
            value={value}
            disabled={disabled}
            maxLength={254}
            placeholder="you@example.com"
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
            className="max-w-md"
          />
        )}
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={disabled || busy}>
          <Send aria-hidden />
          {busy ? 'Sending the link…' : initial ? 'Change and send the link' : 'Add and send the link'}
        </Button>
        {onCancel ? (
          <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** One Radix switch per kind, each with its label and what it covers. */
function KindSwitches({
  userId,
  prefs,
  state,
  disabled,
}: {
  userId: number;
  prefs: EmailPreferences;
  state: EmailState;
  disabled: boolean;
}) {
  const mutations = useEmailMutations(userId);
  const headingId = useId();
  const toggle = async (kind: EmailKind, on: boolean) => {
    try {
      await mutations.setKind(kind, on);
    } catch (error) {
      toast({
        title: 'Could not change it',
        description: serverWords(error, 'Please try again.'),
        variant: 'destructive',
      });
    }
  };
  return (
    <fieldset className="flex flex-col gap-1" aria-labelledby={headingId}>
      <legend id={headingId} className="mb-1 text-sm font-medium text-zinc-900 dark:text-zinc-100">
        Email me when
      </legend>
      {state.email && !state.verified && state.sending ? (
        <p className={`${quiet} mb-1`}>Mails go out once your address is verified.</p>
      ) : null}
      <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {EMAIL_KINDS.map((kind) => (
          <KindSwitch
            key={kind}
            kind={kind}
            checked={prefs.kinds[kind]}
            disabled={disabled}
            onChange={(on) => void toggle(kind, on)}
          />
        ))}
      </ul>
    </fieldset>
  );
}

function KindSwitch({
  kind,
  checked,
  disabled,
  onChange,
}: {
  kind: EmailKind;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  const { label, hint } = EMAIL_KIND_LABELS[kind];
  return (
    <li className="flex items-center justify-between gap-4 py-2.5">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      </div>
      <Switch.Root
        id={id}
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        data-kind={kind}
        onCheckedChange={onChange}
        className="relative h-6 w-11 shrink-0 rounded-full bg-zinc-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-indigo-600 motion-reduce:transition-none dark:bg-zinc-700 dark:data-[state=checked]:bg-indigo-500"
      >
        <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px] motion-reduce:transition-none" />
      </Switch.Root>
    </li>
  );
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/** The daily digest: off, or an hour of the day in the person's time zone. */
function DigestPart({
  userId,
  prefs,
  disabled,
}: {
  userId: number;
  prefs: EmailPreferences;
  disabled: boolean;
}) {
  const mutations = useEmailMutations(userId);
  const [busy, setBusy] = useState(false);
  const zone =
    prefs.digest_hour === null ? Intl.DateTimeFormat().resolvedOptions().timeZone : prefs.time_zone;
  const choose = async (value: string) => {
    setBusy(true);
    try {
      await mutations.setDigestHour(value === 'off' ? null : Number(value));
    } catch (error) {
      toast({
        title: 'Could not change the digest',
        description: serverWords(error, 'Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Field
      label="Daily digest"
      hint={`What is overdue and due today, in one mail at this hour in your time zone (${zone}). Nothing is sent on a day with nothing due.`}
    >
      {(field) => (
        <select
          {...field}
          value={prefs.digest_hour === null ? 'off' : String(prefs.digest_hour)}
          disabled={disabled || busy}
          onChange={(e) => void choose(e.target.value)}
          className={inputClasses('max-w-60')}
        >
          <option value="off">Off</option>
          {HOURS.map((hour) => (
            <option key={hour} value={hour}>
              {hourText(hour)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** 'Send a test email': the server's own words when its mail server refused. */
function TestPart({ userId, state, disabled }: { userId: number; state: EmailState; disabled: boolean }) {
  const mutations = useEmailMutations(userId);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = state.email !== null && state.verified;
  const run = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await mutations.test();
      toast({ title: 'Test email sent', description: `Check ${state.email ?? 'your inbox'}.` });
    } catch (error) {
      const words = serverWords(error, 'The test email could not be sent. Please try again.');
      setFailure(words);
      toast({ title: 'Test email not sent', description: words, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col items-start gap-2">
      <Button variant="outline" size="sm" disabled={disabled || busy || !ready} onClick={() => void run()}>
        <Send aria-hidden />
        {busy ? 'Sending…' : 'Send a test email'}
      </Button>
      {ready ? null : <p className={quiet}>A test email needs a verified address.</p>}
      {failure ? (
        <p role="alert" className="text-sm break-words text-red-600 dark:text-red-400">
          The mail server said: {failure}
        </p>
      ) : null}
    </div>
  );
}

import { Bell, Building2, KeyRound, RefreshCw, Users } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { OIDC_ERROR_PARAM, oidcFailureSentence } from '../../shared/oidc';
import { describePasskeyFailure } from '../../shared/passkeyFailure';
import { BrandMark } from '../app/Brand';
import { useDoor, useSignedInUser } from '../app/door';
import { prefetchSignIn, preloadRoute } from '../app/router';
import {
  useAuthMode,
  useFinishOidcSignIn,
  useOidcProvider,
  usePasskeySignIn,
  usePrepareSignIn,
  useRequestCode,
  useSetAuthMode,
  useSignIn,
  useStartOidcSignIn,
} from '../app/useSignIn';
import { Button, Card, Field, Input, Skeleton } from '../components/ui';
import { NOTICES } from '../onboarding/steps';
import { onboardingStore } from '../stores/onboardingStore';
import { authFailureToast, describeAuthFailure } from './authErrors';

const BENEFITS = [
  { icon: RefreshCw, title: 'Sync across devices', text: 'Your campaigns, tasks and todos on every device.' },
  { icon: Users, title: 'Collaborate with others', text: 'Assign work to the people you know.' },
  { icon: Bell, title: 'Get notifications', text: 'Hear about changes that matter to you.' },
] as const;

const LOGIN_FAILED = 'Failed to login. Please try again.';

export default function LoginPage() {
  const navigate = useNavigate();
  const { toasts } = useDoor();
  const setAuthMode = useSetAuthMode();
  const signedInUser = useSignedInUser();
  const signIn = useSignIn();
  const requestCode = useRequestCode();
  const passkeySignIn = usePasskeySignIn();
  const mode = useAuthMode();
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  // The phone the last code went to: a different phone needs a new code.
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const oidcProvider = useOidcProvider();
  const startOidc = useStartOidcSignIn();
  const finishOidc = useFinishOidcSignIn();
  const [searchParams] = useSearchParams();
  // A failed single sign-on comes back as ?error=<code>: its one sentence, above everything.
  const oidcError = oidcFailureSentence(searchParams.get(OIDC_ERROR_PARAM));
  const oidcReturned = searchParams.get('signed_in') === 'oidc';
  const finishing = useRef(false);

  const prepareSignIn = usePrepareSignIn();
  // The anti-forgery cookie at once (one small request), so the Sign In click waits for the sign-in
  // alone. Home is where a sign-in lands: its chunks, and the code the sign-in runs, download at low
  // priority right after this screen's first paint, while the form is filled in. Not at idle: a form
  // filled at once (autofill) keeps the page busy until the click, and the chunks then took the
  // connections the sign-in needed.
  useEffect(() => {
    prepareSignIn();
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(prefetchSignIn, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [prepareSignIn]);

  useEffect(() => {
    if (!oidcReturned || finishing.current) return;
    finishing.current = true;
    void (async () => {
      try {
        await finishOidc();
        const onboarding = onboardingStore.getState();
        if (!onboarding.hasCompletedOnboarding) onboarding.complete();
        navigate('/', { replace: true });
      } catch {
        navigate('/login?error=oidc_failed', { replace: true });
      }
    })();
  }, [oidcReturned, finishOidc, navigate]);

  const phoneMissing = phone.trim() === '';
  const nameMissing = name.trim() === '';
  const codeSent = mode === 'otp' && codeSentTo !== null && codeSentTo === phone.trim();
  const codeIncomplete = code.length !== 6;

  /** Shows a failed call: a 429 as 'Too many attempts' with the server's wait, a wrong code inline. */
  const showFailure = (caught: unknown) => {
    const failure = describeAuthFailure(caught);
    if (failure.kind === 'bad-code' && mode !== 'otp') {
      // The server wants a code although it did not say so before (its mode changed): switch flows.
      setAuthMode('otp');
      setError('This server signs in with a code. Send one to your phone.');
      return;
    }
    const toast = authFailureToast(failure);
    if (toast) toasts.getState().push({ ...toast, variant: 'destructive' });
    if (failure.kind === 'rate-limited') {
      setError(failure.message);
    } else if (failure.kind === 'bad-code') {
      setCodeError(failure.message);
    } else if (failure.kind === 'bad-phone') {
      setError(failure.message);
    } else {
      setError(LOGIN_FAILED);
    }
  };

  const sendCode = async () => {
    setBusy(true);
    setError(null);
    setCodeError(null);
    try {
      const sentMode = await requestCode(phone.trim());
      if (sentMode !== 'otp') {
        // The server answered in demo mode after all: sign in the demo way.
        setAuthMode('demo');
        return;
      }
      setCode('');
      setCodeSentTo(phone.trim());
      toasts.getState().push(NOTICES.codeSent);
    } catch (caught) {
      showFailure(caught);
    } finally {
      setBusy(false);
    }
  };

  /** Signs in the way the phone does once the server has said yes; nothing to type first. */
  const signInWithPasskey = async () => {
    setBusy(true);
    setError(null);
    setPasskeyError(null);
    try {
      const home = preloadRoute('/', true);
      await passkeySignIn();
      const onboarding = onboardingStore.getState();
      if (!onboarding.hasCompletedOnboarding) onboarding.complete();
      await home;
      navigate('/', { replace: true });
    } catch (caught) {
      setPasskeyError(describePasskeyFailure(caught, 'sign-in'));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (phoneMissing || nameMissing) return;
    if (mode === 'otp' && !codeSent) return void sendCode();
    if (mode === 'otp' && codeIncomplete) {
      setCodeError('Enter the 6-digit code from the text message.');
      return;
    }
    setBusy(true);
    setError(null);
    setCodeError(null);
    try {
      // Home's module runs while the sign-in is out: a screen whose module is still loading shows its
      // fallback first, and React reveals the screen no sooner than 300 ms after that fallback.
      const home = preloadRoute('/', true);
      await signIn(phone.trim(), name.trim(), mode === 'otp' ? code : undefined);
      // Signing in is the choice onboarding asks for, so it does not stand in the way afterwards.
      const onboarding = onboardingStore.getState();
      if (!onboarding.hasCompletedOnboarding) onboarding.complete();
      await home;
      navigate('/', { replace: true });
    } catch (caught) {
      showFailure(caught);
    } finally {
      setBusy(false);
    }
  };

  const submitLabel = busy
    ? codeSent || mode !== 'otp'
      ? 'Signing in...'
      : 'Sending...'
    : mode === 'otp' && !codeSent
      ? 'Send code'
      : 'Sign In';

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-6 py-2 md:py-6">
      <div className="flex flex-col items-center gap-3 text-center">
        <BrandMark className="size-10" />
        <h1 className="text-2xl font-semibold tracking-tight">Sign In to Outpost</h1>
        {signedInUser ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            You are signed in as {signedInUser.name}. Sign in again to switch accounts.
          </p>
        ) : null}
      </div>

      <Card className="p-5">
        {oidcError ? (
          <p
            role="alert"
            className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950/60 dark:text-red-300"
          >
            {oidcError}
          </p>
        ) : null}
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <Field
            label="Phone number"
            error={touched && phoneMissing ? 'Phone number is required' : undefined}
          >
            {(field) => (
              <Input
                {...field}
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                required
                placeholder="+15551234567"
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
              />
            )}
          </Field>
          <Field label="Name" error={touched && nameMissing ? 'Name is required' : undefined}>
            {(field) => (
              <Input
                {...field}
                autoComplete="name"
                required
                placeholder="Your name"
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          {codeSent ? (
            <div className="flex flex-col gap-2">
              <Field
                label="Verification code"
                hint={`We sent a 6-digit code to ${codeSentTo}.`}
                error={codeError ?? undefined}
              >
                {(field) => (
                  <Input
                    {...field}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    placeholder="000000"
                    className="font-mono tracking-[0.3em]"
                    value={code}
                    onChange={(e) => {
                      setCode(e.target.value.replace(/\D/g, '').slice(0, 6));
                      setCodeError(null);
                    }}
                    autoFocus
                  />
                )}
              </Field>
              <Button
                variant="ghost"
                size="sm"
                className="self-start"
                disabled={busy}
                onClick={() => void sendCode()}
              >
                Resend code
              </Button>
            </div>
          ) : null}
          {error ? (
            <p
              role="alert"
              className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950/60 dark:text-red-300"
            >
              {error}
            </p>
          ) : null}
          <Button type="submit" size="lg" disabled={busy}>
            {submitLabel}
          </Button>
        </form>

        {/* DESIGN: the phone form first and the one primary button; the other ways are secondary
            full-width buttons under an 'or' divider, and going on without an account is the quietest. */}
        <div className="my-4 flex items-center gap-3 text-xs text-zinc-500 uppercase dark:text-zinc-400">
          <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
          or
          <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        </div>
        <div className="flex flex-col gap-3">
          {oidcProvider ? (
            <Button
              variant="outline"
              size="lg"
              className="w-full"
              disabled={busy || oidcReturned}
              onClick={startOidc}
            >
              <Building2 aria-hidden />
              Sign in with {oidcProvider.name}
            </Button>
          ) : oidcProvider === undefined ? (
            // The server has not said yet whether it has a provider: its button's place is kept, so
            // what is below does not move under a press when it arrives.
            <Skeleton className="h-12 w-full rounded-lg" />
          ) : null}
          <Button
            variant="outline"
            size="lg"
            className="w-full"
            disabled={busy}
            onClick={() => void signInWithPasskey()}
          >
            <KeyRound aria-hidden />
            Sign in with a passkey
          </Button>
          {passkeyError ? (
            <p
              role="alert"
              className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950/60 dark:text-red-300"
            >
              {passkeyError}
            </p>
          ) : null}
          {signedInUser ? null : (
            <Button
              variant="ghost"
              size="lg"
              className="w-full"
              onClick={() => {
                // Choosing local mode is the choice onboarding asks for; do not bounce to it.
                const onboarding = onboardingStore.getState();
                if (!onboarding.hasCompletedOnboarding) onboarding.skip();
                navigate('/campaigns');
              }}
            >
              Continue without signing in
            </Button>
          )}
        </div>
      </Card>

      <ul className="grid gap-3 sm:grid-cols-3">
        {BENEFITS.map((b) => (
          <li key={b.title} className="flex gap-3 sm:flex-col sm:gap-2">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
              <b.icon className="size-4" aria-hidden />
            </span>
            <span>
              <span className="block text-sm font-medium">{b.title}</span>
              <span className="block text-sm text-zinc-600 dark:text-zinc-400">{b.text}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

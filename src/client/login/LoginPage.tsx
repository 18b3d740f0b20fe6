import { useQuery } from '@tanstack/react-query';
import { Bell, RefreshCw, Users } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { BrandMark } from '../app/Brand';
import { useServices, useSignedInUser } from '../app/services';
import { type AuthMode, useRequestCode, useSignIn } from '../app/useSignIn';
import { Button, Card, Field, Input } from '../components/ui';
import { onboardingStore } from '../stores/onboardingStore';

const BENEFITS = [
  { icon: RefreshCw, title: 'Sync across devices', text: 'Your campaigns, tasks and todos on every device.' },
  { icon: Users, title: 'Collaborate with others', text: 'Assign work to the people you know.' },
  { icon: Bell, title: 'Get notifications', text: 'Hear about changes that matter to you.' },
] as const;

const LOGIN_FAILED = 'Failed to login. Please try again.';

export default function LoginPage() {
  const navigate = useNavigate();
  const { api } = useServices();
  const signedInUser = useSignedInUser();
  const signIn = useSignIn();
  const requestCode = useRequestCode();
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);

  // With AUTH_MODE=otp the server wants a code; the demo mode (default) signs in with phone and name.
  const { data: mode } = useQuery({
    queryKey: ['auth-mode'],
    queryFn: async () => (await api.get<{ mode: AuthMode }>('/auth/mode')).data.mode,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  const phoneMissing = phone.trim() === '';
  const nameMissing = name.trim() === '';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (phoneMissing || nameMissing) return;
    setBusy(true);
    setError(null);
    try {
      if (mode === 'otp' && !codeSent) {
        await requestCode(phone.trim());
        setCodeSent(true);
        return;
      }
      await signIn(phone.trim(), name.trim(), mode === 'otp' ? code : undefined);
      // Signing in is the choice onboarding asks for, so it does not stand in the way afterwards.
      const onboarding = onboardingStore.getState();
      if (!onboarding.hasCompletedOnboarding) onboarding.complete();
      navigate('/', { replace: true });
    } catch {
      setError(LOGIN_FAILED);
    } finally {
      setBusy(false);
    }
  };

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
          {mode === 'otp' && codeSent ? (
            <Field label="Verification code" hint="Check your phone for the verification code">
              {(field) => (
                <Input
                  {...field}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  value={code}
                  onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                />
              )}
            </Field>
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
            {busy ? 'Signing in...' : mode === 'otp' && !codeSent ? 'Send code' : 'Sign In'}
          </Button>
        </form>

        {signedInUser ? null : (
          <>
            <div className="my-4 flex items-center gap-3 text-xs text-zinc-500 uppercase dark:text-zinc-400">
              <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
              or
              <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
            </div>
            <Button
              variant="outline"
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
          </>
        )}
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

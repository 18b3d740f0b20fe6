import { type FormEvent, useState } from 'react';
import { useStore } from 'zustand';
import { toast, useDoor } from '../app/door';
import { useAuthMode } from '../app/useSignIn';
import { Button } from '../components/ui';
import { Field } from '../components/ui/Field';
import { Input } from '../components/ui/Input';
import { Section } from '../components/ui/Section';

/** Where a refused call's sentence goes: under the phone, under the code, or above both. */
type Problem = { field: 'phone' | 'code' | 'form'; message: string };

/** The server's sentence for a refused phone or code (422, 409, 429), or a plain one. */
function refusal(error: unknown): Problem {
  const { status, message, data } = (error ?? {}) as { status?: number; message?: unknown; data?: unknown };
  const errors = (data as { errors?: Record<string, string[]> } | undefined)?.errors;
  const said = typeof message === 'string' && message !== '' ? message : null;
  if (status === 422 && errors?.code)
    return { field: 'code', message: errors.code[0] ?? said ?? 'Wrong code.' };
  if (status === 422) return { field: 'phone', message: errors?.phone?.[0] ?? said ?? 'Not a phone number.' };
  if ((status === 409 || status === 429) && said) return { field: 'form', message: said };
  if (status === 0)
    return { field: 'form', message: 'You are offline. Add your phone when you are back online.' };
  return { field: 'form', message: 'Could not add your phone. Please try again.' };
}

/**
 * Preferences › Phone (N15): contacts find people by phone, and a person who came by single sign-on
 * has none. They add one here, proven by a texted code when the server sends codes; a person with a
 * phone sees it.
 */
export function PhoneSection() {
  const { auth, send } = useDoor();
  const phone = useStore(auth, (s) => s.user.phone);
  const mode = useAuthMode();
  const [draft, setDraft] = useState('');
  const [code, setCode] = useState('');
  // The phone the last code went to: another phone needs a new code.
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const typed = draft.trim();
  const codeSent = mode === 'otp' && codeSentTo !== null && codeSentTo === typed;

  const sendCode = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const sentMode = await send('server.requestPhoneCode', typed);
      if (sentMode === 'otp') {
        setCode('');
        setCodeSentTo(typed);
        toast({ title: 'Code sent', description: `Enter the 6-digit code we sent to ${typed}.` });
      } else {
        await add();
      }
    } catch (caught) {
      setProblem(refusal(caught));
    } finally {
      setBusy(false);
    }
  };

  const add = async () => {
    const user = await auth.getState().addPhone(typed, mode === 'otp' ? code : undefined);
    setDraft('');
    setCode('');
    setCodeSentTo(null);
    toast({ title: 'Phone added', description: `Contacts who have ${user.phone} can find you now.` });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (typed === '') return setProblem({ field: 'phone', message: 'Enter your phone number.' });
    if (mode === 'otp' && !codeSent) return void sendCode();
    if (mode === 'otp' && code.length !== 6) {
      return setProblem({ field: 'code', message: 'Enter the 6-digit code from the text message.' });
    }
    setBusy(true);
    setProblem(null);
    try {
      await add();
    } catch (caught) {
      setProblem(refusal(caught));
    } finally {
      setBusy(false);
    }
  };

  if (phone) {
    return (
      <Section id="pref-phone" title="Phone" description="Contacts who have your number find you by it.">
        <p className="text-sm">
          Your phone number is <span className="font-medium">{phone}</span>.
        </p>
      </Section>
    );
  }

  const label = busy
    ? mode === 'otp' && !codeSent
      ? 'Sending…'
      : 'Adding…'
    : mode === 'otp' && !codeSent
      ? 'Send code'
      : 'Add phone';
  return (
    <Section
      id="pref-phone"
      title="Phone"
      description="You signed in without a phone. Add one so contacts who have your number can find you."
    >
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-3" noValidate>
        <Field label="Phone number" error={problem?.field === 'phone' ? problem.message : undefined}>
          {(field) => (
            <Input
              {...field}
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="+15551234567"
              value={draft}
              onChange={(e) => {
                setDraft(e.target.value);
                setProblem(null);
              }}
            />
          )}
        </Field>
        {codeSent ? (
          <Field
            label="Verification code"
            hint={`We sent a 6-digit code to ${codeSentTo}.`}
            error={problem?.field === 'code' ? problem.message : undefined}
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
                  setProblem(null);
                }}
                autoFocus
              />
            )}
          </Field>
        ) : null}
        {problem?.field === 'form' ? (
          <p
            role="alert"
            className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950/60 dark:text-red-300"
          >
            {problem.message}
          </p>
        ) : null}
        <Button type="submit" disabled={busy} className="self-start">
          {label}
        </Button>
      </form>
    </Section>
  );
}

import { FileText, KeyRound, LogIn, Phone, Smartphone, X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { NAME_MAX } from '../../shared/profile';
import { Button, Field, Input, Progress } from '../components/ui';
import { cn, focusRing } from '../components/ui/cn';
import { phoneContactsSupported } from '../data/contacts/contactPicker';
import { authFailureToast, describeAuthFailure } from '../login/authErrors';
import { STEP_COPY } from './stepContent';
import {
  type AccountChoice,
  CODE_LENGTH,
  canGoNext,
  clampStep,
  countedSteps,
  isLastStep,
  NOTICES,
  type Notice,
  PLACEHOLDER_NAME,
  progressOf,
  type StepId,
  sanitizeCode,
  stepsFor,
  TEST_CODE,
  validateCode,
  validatePhone,
} from './steps';

export type FinishKind = 'complete' | 'skip';

export interface OnboardingFlowProps {
  signedIn: boolean;
  initialStep?: number;
  onStepChange?: (step: number) => void;
  /** The account choice made before (persisted with the step), so the same step list resumes. */
  initialChoice?: AccountChoice;
  onChoiceChange?: (choice: AccountChoice) => void;
  /** Signs in with the phone and a placeholder name; rejects on failure. */
  signIn: (phone: string, name: string, code: string) => Promise<unknown>;
  /** Asks for a code; resolves 'demo' when the test code is what works. */
  requestCode?: (phone: string) => Promise<'demo' | 'otp'>;
  /** The server's sign-in mode as far as known (GET /api/auth/mode); a code request's answer wins. */
  authMode?: 'demo' | 'otp';
  notify: (notice: Notice, variant?: 'default' | 'destructive') => void;
  /** Called at once; the caller navigates after the fade. */
  onFinish: (kind: FinishKind, to: string) => void;
}

/** The tutorial card: progress, 'Step X of N', the step, Previous and Next / Get Started. */
export function OnboardingFlow({
  signedIn,
  initialStep = 0,
  onStepChange,
  initialChoice = null,
  onChoiceChange,
  signIn,
  requestCode,
  authMode,
  notify,
  onFinish,
}: OnboardingFlowProps) {
  const [choice, setChoice] = useState<AccountChoice>(initialChoice);
  const steps = stepsFor(choice, signedIn);
  const [index, setIndex] = useState(() => clampStep(initialStep, steps));
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [sentMode, setSentMode] = useState<'demo' | 'otp' | null>(null);
  const mode = sentMode ?? authMode ?? 'demo';
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [exiting, setExiting] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const current = index < steps.length ? index : steps.length - 1;
  const step: StepId = steps[current] ?? 'welcome';
  const last = isLastStep(current, steps);
  const { label: stepLabel, percent } = progressOf(current, countedSteps(choice, signedIn));

  useEffect(() => {
    onStepChange?.(current);
  }, [current, onStepChange]);

  useEffect(() => {
    onChoiceChange?.(choice);
  }, [choice, onChoiceChange]);

  const goTo = (next: number) => {
    setIndex(clampStep(next, steps));
    // Move focus to the new step's heading so screen readers announce it.
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  const finish = (kind: FinishKind, to = '/') => {
    if (exiting) return;
    setExiting(true);
    onFinish(kind, to);
  };

  const submitPhone = async () => {
    const problem = validatePhone(phone);
    if (problem) {
      setPhoneError(problem.description);
      notify(problem, 'destructive');
      return;
    }
    setPhoneError(null);
    setBusy(true);
    try {
      await sendCode();
      goTo(current + 1);
    } catch (caught) {
      const failure = describeAuthFailure(caught);
      if (failure.kind === 'bad-phone') {
        setPhoneError(NOTICES.invalidPhone.description);
        notify(NOTICES.invalidPhone, 'destructive');
      } else notifyFailure(caught);
    } finally {
      setBusy(false);
    }
  };

  /** Asks the server for a code (in demo mode it sends none) and says so. */
  const sendCode = async () => {
    setSentMode(requestCode ? await requestCode(phone.trim()) : 'demo');
    notify(NOTICES.codeSent);
  };

  /** A 429 says 'Too many attempts' with the server's wait; anything else is the spec's 'Login failed'. */
  const notifyFailure = (caught: unknown) => {
    notify(authFailureToast(describeAuthFailure(caught)) ?? NOTICES.loginFailed, 'destructive');
  };

  const resendCode = async () => {
    setBusy(true);
    setCode('');
    setCodeError(null);
    try {
      await sendCode();
    } catch (caught) {
      notifyFailure(caught);
    } finally {
      setBusy(false);
    }
  };

  const submitCode = async () => {
    // In demo mode only the test code is right; a real (otp) code is checked by the server.
    const problem =
      mode === 'demo' ? validateCode(code) : code.length === CODE_LENGTH ? null : NOTICES.invalidCode;
    if (problem) {
      setCodeError(problem.description);
      notify(problem, 'destructive');
      return;
    }
    setCodeError(null);
    setBusy(true);
    try {
      await signIn(phone.trim(), name.trim() || PLACEHOLDER_NAME, code);
      notify(NOTICES.welcome);
      goTo(current + 1);
    } catch (caught) {
      // The spec: the user stays on this step and can try again.
      const failure = describeAuthFailure(caught);
      // The server's text says why (wrong, expired, locked) and how many tries are left.
      if (failure.kind === 'bad-code' || failure.kind === 'rate-limited') setCodeError(failure.message);
      notifyFailure(caught);
    } finally {
      setBusy(false);
    }
  };

  const next = () => {
    if (!canGoNext(step, { choice, phone, code, busy })) return;
    if (step === 'phone' && !signedIn) return void submitPhone();
    if (step === 'code' && !signedIn) return void submitCode();
    if (last) return finish('complete');
    goTo(current + 1);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    next();
  };

  const nextEnabled =
    step === 'phone' || step === 'code'
      ? signedIn || canGoNext(step, { choice, phone, code, busy })
      : canGoNext(step, { choice, phone, code, busy });

  return (
    <DialogPrimitive.Root open onOpenChange={(open) => (open ? undefined : finish('skip'))}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay
          className={cn(
            'fixed inset-0 z-50 bg-gradient-to-b from-indigo-50 to-zinc-100 transition-opacity duration-300 motion-reduce:transition-none dark:from-indigo-950/40 dark:to-zinc-950',
            exiting && 'opacity-0',
          )}
        />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            headingRef.current?.focus();
          }}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-xl outline-none transition-opacity duration-300 motion-reduce:transition-none data-[state=open]:animate-[dialog-in_200ms_ease-out] dark:border-zinc-800 dark:bg-zinc-900',
            exiting && 'opacity-0',
          )}
        >
          <DialogPrimitive.Title className="sr-only">Welcome</DialogPrimitive.Title>
          <div className="flex items-center gap-3 px-5 pt-4">
            <Progress value={percent} label="Tutorial progress" className="flex-1" />
            <span className="shrink-0 text-xs font-medium text-zinc-500 tabular-nums dark:text-zinc-400">
              {stepLabel}
            </span>
            <DialogPrimitive.Close
              aria-label="Skip tutorial"
              title="Skip tutorial"
              className={cn(
                '-mr-2 inline-flex size-8 shrink-0 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
                focusRing,
              )}
            >
              <X className="size-4" aria-hidden />
            </DialogPrimitive.Close>
          </div>

          <form onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col" noValidate>
            <div className="min-h-0 flex-1 overflow-y-auto px-6 pt-6 pb-2" key={step}>
              <StepBody
                step={step}
                headingRef={headingRef}
                choice={choice}
                onChoose={setChoice}
                phone={phone}
                onPhone={(v) => {
                  setPhone(v);
                  setPhoneError(null);
                }}
                phoneError={phoneError}
                name={name}
                onName={setName}
                code={code}
                onCode={(v) => {
                  setCode(sanitizeCode(v));
                  setCodeError(null);
                }}
                codeError={codeError}
                mode={mode}
                busy={busy}
                onResend={() => void resendCode()}
                signedIn={signedIn}
                onImport={() => finish('complete', '/contacts')}
                onSkipImport={() => goTo(current + 1)}
              />
            </div>
            <div className="flex items-center justify-between gap-3 border-t border-zinc-100 px-5 py-4 dark:border-zinc-800">
              <Button variant="ghost" onClick={() => goTo(current - 1)} disabled={current === 0 || busy}>
                Previous
              </Button>
              <Button type="submit" disabled={!nextEnabled} className="min-w-28">
                {busy ? (step === 'code' ? 'Signing in...' : 'Sending...') : last ? 'Get Started' : 'Next'}
              </Button>
            </div>
          </form>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

interface StepBodyProps {
  step: StepId;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  choice: AccountChoice;
  onChoose: (choice: AccountChoice) => void;
  phone: string;
  onPhone: (value: string) => void;
  phoneError: string | null;
  name: string;
  onName: (value: string) => void;
  code: string;
  onCode: (value: string) => void;
  codeError: string | null;
  mode: 'demo' | 'otp';
  busy: boolean;
  onResend: () => void;
  signedIn: boolean;
  onImport: () => void;
  onSkipImport: () => void;
}

function StepHeading({
  headingRef,
  icon: Icon,
  title,
  children,
}: {
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  icon: React.ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  title: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-col items-center text-center">
      <span className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
        <Icon className="size-7" aria-hidden />
      </span>
      <h2 ref={headingRef} tabIndex={-1} className="text-xl font-semibold tracking-tight outline-none">
        {title}
      </h2>
      {children ? (
        <p className="mt-2 text-sm leading-6 text-zinc-600 dark:text-zinc-400">{children}</p>
      ) : null}
    </div>
  );
}

function StepBody(props: StepBodyProps) {
  const { step, headingRef } = props;
  const groupId = useId();

  if (step === 'phone') {
    return (
      <div className="flex flex-col gap-5">
        <StepHeading headingRef={headingRef} icon={Phone} title="What's your phone number?">
          {props.signedIn ? 'You are already signed in.' : 'We will send you a 6-digit code to sign in.'}
        </StepHeading>
        {props.signedIn ? null : (
          <Field label="Phone number" error={props.phoneError ?? undefined}>
            {(field) => (
              <Input
                {...field}
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                placeholder="+15551234567"
                value={props.phone}
                onChange={(e) => props.onPhone(e.target.value)}
                autoFocus
              />
            )}
          </Field>
        )}
        {props.signedIn ? null : (
          <Field
            label="Your name (optional)"
            hint="How colleagues see you. You can change it in Preferences."
          >
            {(field) => (
              <Input
                {...field}
                autoComplete="name"
                maxLength={NAME_MAX}
                placeholder={PLACEHOLDER_NAME}
                value={props.name}
                onChange={(e) => props.onName(e.target.value)}
              />
            )}
          </Field>
        )}
      </div>
    );
  }

  if (step === 'code') {
    return (
      <div className="flex flex-col gap-5">
        <StepHeading headingRef={headingRef} icon={KeyRound} title="Enter your code">
          {props.signedIn
            ? 'You are signed in.'
            : `We sent a 6-digit code to ${props.phone || 'your phone'}.`}
        </StepHeading>
        {props.signedIn ? null : (
          <Field
            label="Verification code"
            error={props.codeError ?? undefined}
            hint={props.mode === 'demo' ? `Testing? The code ${TEST_CODE} is accepted.` : undefined}
          >
            {(field) => (
              <Input
                {...field}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="\d{6}"
                maxLength={CODE_LENGTH}
                placeholder="000000"
                className="text-center font-mono text-lg tracking-[0.5em]"
                value={props.code}
                onChange={(e) => props.onCode(e.target.value)}
                autoFocus
              />
            )}
          </Field>
        )}
        {props.signedIn || props.mode !== 'otp' ? null : (
          <Button variant="ghost" className="self-center" disabled={props.busy} onClick={props.onResend}>
            Resend code
          </Button>
        )}
      </div>
    );
  }

  const copy = STEP_COPY[step];
  if (!copy) return null;

  if (step === 'account') {
    const options = [
      {
        value: 'sign-in' as const,
        icon: LogIn,
        label: 'Sign In',
        text: 'Sync across devices, collaborate and get notifications.',
      },
      {
        value: 'local' as const,
        icon: Smartphone,
        label: 'Continue Without Account',
        text: 'Everything stays on this device. Sign in any time.',
      },
    ];
    return (
      <div className="flex flex-col gap-5">
        <StepHeading headingRef={headingRef} icon={copy.icon} title={copy.title}>
          {copy.body}
        </StepHeading>
        <div role="radiogroup" aria-labelledby={`${groupId}-label`} className="flex flex-col gap-2">
          <span id={`${groupId}-label`} className="sr-only">
            How do you want to use Outpost?
          </span>
          {options.map((o) => (
            <label
              key={o.value}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-xl border p-3.5 transition-colors duration-150 motion-reduce:transition-none has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
                props.choice === o.value
                  ? 'border-indigo-500 bg-indigo-50/70 dark:border-indigo-400 dark:bg-indigo-950/50'
                  : 'border-zinc-200 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800/60',
              )}
            >
              <input
                type="radio"
                name="account-choice"
                value={o.value}
                checked={props.choice === o.value}
                onChange={() => props.onChoose(o.value)}
                className="sr-only"
              />
              <span
                className={cn(
                  'mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-lg',
                  props.choice === o.value
                    ? 'bg-indigo-600 text-white dark:bg-indigo-600'
                    : 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300',
                )}
              >
                <o.icon className="size-4.5" aria-hidden />
              </span>
              <span className="flex flex-col">
                <span className="text-sm font-semibold">{o.label}</span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">{o.text}</span>
              </span>
            </label>
          ))}
        </div>
      </div>
    );
  }

  if (step === 'contacts') {
    return (
      <div className="flex flex-col gap-5">
        <StepHeading headingRef={headingRef} icon={copy.icon} title={copy.title}>
          {copy.body}
        </StepHeading>
        <div className="flex flex-col gap-2">
          {phoneContactsSupported() ? (
            <Button variant="outline" size="lg" onClick={props.onImport}>
              <Smartphone aria-hidden />
              Import from Phone
            </Button>
          ) : null}
          <Button variant="outline" size="lg" onClick={props.onImport}>
            <FileText aria-hidden />
            Import from CSV
          </Button>
          <Button variant="ghost" onClick={props.onSkipImport}>
            Skip for Now
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-5">
      <StepHeading headingRef={headingRef} icon={copy.icon} title={copy.title}>
        {copy.body}
      </StepHeading>
      {copy.points ? (
        <ul className="flex flex-col gap-2 rounded-xl bg-zinc-50 p-4 text-sm dark:bg-zinc-800/60">
          {copy.points.map((point) => {
            const [name, rest] = point.split(': ');
            return (
              <li key={point} className="flex gap-2">
                <span aria-hidden className="mt-2 size-1.5 shrink-0 rounded-full bg-indigo-500" />
                <span>
                  <span className="font-medium">{name}</span>
                  {rest ? <span className="text-zinc-600 dark:text-zinc-400">: {rest}</span> : null}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

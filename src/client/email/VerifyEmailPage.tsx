import { useQueryClient } from '@tanstack/react-query';
import { LogIn, MailCheck, MailX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type Send, useAuthState, useDataLayer, useDoor, useSignedInUser } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { rememberReturn } from '../app/returnAfterSignIn';
import { Button } from '../components/ui';
import { EmailPageLoading, EmailPagePanel, refusalText } from './EmailPagePanel';

/** The shape of a token the verification mail's link carries (shared/email.ts emailVerifySchema). */
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

type Outcome = { ok: true; email: string } | { ok: false; message: string };

// One POST per token a page: a token is used up by its first post, so a remount (React's strict
// mode, a re-render after sign-in) must read that post's answer rather than post again.
const posted = new Map<string, Promise<Outcome>>();

function verifyOnce(send: Send, userId: number, token: string): Promise<Outcome> {
  const key = `${userId}:${token}`;
  let outcome = posted.get(key);
  if (!outcome) {
    outcome = send('email.verify', token).then(
      (answer): Outcome => ({ ok: true, email: answer.email }),
      (error: unknown): Outcome => ({
        ok: false,
        message: refusalText(error, 'That link could not be checked. Please try again.'),
      }),
    );
    posted.set(key, outcome);
  }
  return outcome;
}

const toPreferences = '/preferences#pref-email';

/**
 * /verify-email?token=… (ARCHITECTURE §4 'Email'): the verification mail's link. Signed in, it posts
 * the token once and says the address is verified, or why not; signed out, it asks to sign in and
 * comes back here with the token.
 */
export default function VerifyEmailPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  // The data layer knows who is signed in; this page may be the first one this browser opens.
  useDataLayer(true);
  const restored = useAuthState((s) => s.restored);
  const user = useSignedInUser();

  if (!TOKEN.test(token)) return <Failed message="That link is not a verification link." />;
  if (!restored) return <EmailPageLoading label="Checking the link…" />;
  if (!user) return <SignInFirst token={token} />;
  return <Verifying token={token} userId={user.id} />;
}

function SignInFirst({ token }: { token: string }) {
  const navigate = useNavigate();
  return (
    <EmailPagePanel
      icon={<MailCheck aria-hidden />}
      title="Sign in to verify your address"
      actions={
        <Button
          size="lg"
          className="w-full"
          onClick={() => {
            rememberReturn(`/verify-email?token=${encodeURIComponent(token)}`);
            navigate('/login');
          }}
        >
          <LogIn aria-hidden />
          Sign in
        </Button>
      }
    >
      The link verifies the address of the account that asked for it. Sign in, and you come back here.
    </EmailPagePanel>
  );
}

function Verifying({ token, userId }: { token: string; userId: number }) {
  const { send } = useDoor();
  const queries = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  useEffect(() => {
    let live = true;
    void verifyOnce(send, userId, token).then((answer) => {
      if (!live) return;
      setOutcome(answer);
      // Preferences › Email shows the new state when opened next.
      if (answer.ok) void queries.invalidateQueries({ queryKey: [SERVER_LIST_KEY, 'email'] });
    });
    return () => {
      live = false;
    };
  }, [send, userId, token, queries]);

  if (!outcome) return <EmailPageLoading label="Verifying your address…" />;
  if (!outcome.ok) return <Failed message={outcome.message} />;
  return (
    <EmailPagePanel
      icon={<MailCheck aria-hidden />}
      tone="done"
      title="Address verified"
      actions={
        <Button asChild size="lg" className="w-full">
          <Link to={toPreferences}>Back to Preferences</Link>
        </Button>
      }
    >
      <p role="status">
        Your address{' '}
        <span className="font-medium break-all text-zinc-900 dark:text-zinc-100">{outcome.email}</span> is
        verified.
      </p>
    </EmailPagePanel>
  );
}

function Failed({ message }: { message: string }) {
  return (
    <EmailPagePanel
      icon={<MailX aria-hidden />}
      tone="failed"
      title="Your address is not verified"
      actions={
        <Button asChild size="lg" variant="outline" className="w-full">
          <Link to={toPreferences}>Send a new link from Preferences</Link>
        </Button>
      }
    >
      <p role="alert">{message}</p>
    </EmailPagePanel>
  );
}

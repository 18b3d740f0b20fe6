import { MailMinus, MailX } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDoor } from '../app/door';
import { Button } from '../components/ui';
import { EmailPagePanel, refusalText } from './EmailPagePanel';

const TOKEN = /^[A-Za-z0-9_.-]{10,300}$/;

const toPreferences = '/preferences#pref-email';

/**
 * /unsubscribe?token=… (ARCHITECTURE §4 'Email'): where a digest's 'Unsubscribe' link lands. One
 * button stops the digest; no sign-in is needed, the token names the person. Nothing is posted on
 * opening, so a mail scanner following the link changes nothing.
 */
export default function UnsubscribePage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const { send } = useDoor();
  const [state, setState] = useState<'asking' | 'busy' | 'done' | { failed: string }>('asking');

  const preferencesLink = (
    <Button asChild size="lg" variant="outline" className="w-full">
      <Link to={toPreferences}>Open Preferences</Link>
    </Button>
  );

  if (!TOKEN.test(token))
    return (
      <EmailPagePanel
        icon={<MailX aria-hidden />}
        tone="failed"
        title="This link does not work"
        actions={preferencesLink}
      >
        <p role="alert">It is not an unsubscribe link. You can turn the digest off in Preferences › Email.</p>
      </EmailPagePanel>
    );

  if (state === 'done')
    return (
      <EmailPagePanel
        icon={<MailMinus aria-hidden />}
        tone="done"
        title="Digest stopped"
        actions={preferencesLink}
      >
        <p role="status">
          You will not get the daily digest any more. You can turn it back on in Preferences.
        </p>
      </EmailPagePanel>
    );

  const stop = async () => {
    setState('busy');
    try {
      await send('email.unsubscribe', token);
      setState('done');
    } catch (error) {
      setState({ failed: refusalText(error, 'Could not stop the digest. Please try again.') });
    }
  };

  return (
    <EmailPagePanel
      icon={<MailMinus aria-hidden />}
      title="Stop the daily digest?"
      actions={
        <>
          <Button size="lg" className="w-full" disabled={state === 'busy'} onClick={() => void stop()}>
            {state === 'busy' ? 'Stopping…' : 'Stop the daily digest'}
          </Button>
          {typeof state === 'object' ? preferencesLink : null}
        </>
      }
    >
      <p>
        You will no longer get the daily mail of what is overdue and due today. Other email stays as you set
        it.
      </p>
      {typeof state === 'object' ? (
        <p role="alert" className="mt-3 text-red-700 dark:text-red-400">
          {state.failed}
        </p>
      ) : null}
    </EmailPagePanel>
  );
}

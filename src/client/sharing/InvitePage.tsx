import { useMutation } from '@tanstack/react-query';
import { Link2Off, LogIn, Users } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router';
import { INVITE_INVALID_MESSAGE, INVITE_TOKEN } from '../../shared/membership';
import { useAuthState, useDataLayer, useDoor, useSignedInUser, useToast } from '../app/door';
import { rememberReturn } from '../app/returnAfterSignIn';
import { Avatar, Button, Card, Skeleton } from '../components/ui';
import { errorText } from './mutations';
import { useInvitePreview } from './queries';
import { ROLE_NAME } from './ShareDialog';

/** 'This invite is no longer valid' without the full stop, as a heading. */
const INVALID_TITLE = INVITE_INVALID_MESSAGE.replace(/\.$/, '');

/**
 * /invite/{token} (ARCHITECTURE §4): the campaign's title, who invited and the role, and Join. Only a
 * signed-in user may read an invite, so a guest signs in first (keeping their local items) and comes
 * back here. Every invite that no longer opens (unknown, expired, revoked, used up) reads the same.
 */
export default function InvitePage() {
  const token = useParams().token ?? '';
  // The data layer knows who is signed in; this screen may be the first one a newcomer sees.
  useDataLayer(true);
  const restored = useAuthState((s) => s.restored);
  const user = useSignedInUser();
  const wellFormed = INVITE_TOKEN.test(token);

  if (!wellFormed) return <InvalidInvite />;
  if (!restored) return <InviteLoading />;
  if (!user) return <GuestInvite token={token} />;
  return <SignedInInvite token={token} />;
}

function InviteLoading() {
  return (
    <Card
      role="status"
      aria-label="Loading the invite..."
      className="mx-auto mt-4 flex max-w-md flex-col gap-3 p-6"
    >
      <Skeleton className="h-5 w-1/2" />
      <Skeleton className="h-7 w-3/4" />
      <Skeleton className="h-4 w-2/3" />
      <Skeleton className="mt-2 h-10 w-full" />
      <span className="sr-only">Loading the invite...</span>
    </Card>
  );
}

export function InvalidInvite() {
  return (
    <div className="mx-auto mt-8 flex max-w-md flex-col items-center gap-2 rounded-xl border border-dashed border-zinc-300 px-6 py-10 text-center dark:border-zinc-700">
      <span className="mb-1 flex size-11 items-center justify-center rounded-full bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400">
        <Link2Off className="size-5" aria-hidden />
      </span>
      <h1 className="text-lg font-semibold text-zinc-900 dark:text-zinc-100">{INVALID_TITLE}</h1>
      <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
        It may have expired, been revoked or used up. Ask the person who sent it for a new link.
      </p>
      <Button asChild className="mt-2">
        <Link to="/">Go to Home</Link>
      </Button>
    </div>
  );
}

function GuestInvite({ token }: { token: string }) {
  const navigate = useNavigate();
  return (
    <Card className="mx-auto mt-4 flex max-w-md flex-col items-center gap-3 p-6 text-center">
      <span className="flex size-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
        <Users className="size-5" aria-hidden />
      </span>
      <h1 className="text-xl font-semibold tracking-tight">You’re invited to a campaign</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Sign in to see it and join. Anything you made on this device comes with you.
      </p>
      <Button
        size="lg"
        className="mt-2 w-full"
        onClick={() => {
          rememberReturn(`/invite/${token}`);
          navigate('/login');
        }}
      >
        <LogIn aria-hidden />
        Sign in to join
      </Button>
    </Card>
  );
}

function SignedInInvite({ token }: { token: string }) {
  const { send } = useDoor();
  const toast = useToast();
  const navigate = useNavigate();
  const preview = useInvitePreview(token, true);
  const join = useMutation({
    mutationFn: () => send('sharing.accept', token),
    onSuccess: (joined) => {
      toast({
        title: 'You joined the campaign',
        description: `“${preview.data?.campaign.title ?? 'The campaign'}” is on your devices now.`,
      });
      navigate(`/campaigns/${joined.campaign_id}`, { replace: true });
    },
    onError: (error) => {
      if ((error as { status?: number }).status === 404) return;
      toast({
        title: 'Error',
        description: errorText(error, 'Failed to join. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  if (preview.isPending) return <InviteLoading />;
  const invalid =
    (preview.isError && (preview.error as { status?: number }).status === 404) ||
    (join.isError && (join.error as { status?: number }).status === 404);
  if (invalid) return <InvalidInvite />;
  if (preview.isError) {
    return (
      <div role="alert" className="mx-auto mt-8 flex max-w-md flex-col items-center gap-3 text-center">
        <p className="text-sm font-medium text-red-800 dark:text-red-200">
          {errorText(preview.error, 'Failed to load the invite. Please try again.')}
        </p>
        <Button variant="outline" size="sm" onClick={() => void preview.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { campaign, inviter, role } = preview.data;
  return (
    <Card className="mx-auto mt-4 flex max-w-md flex-col gap-4 p-6">
      <div className="flex items-center gap-3">
        <Avatar name={inviter.name} size="md" />
        <p className="min-w-0 text-sm text-zinc-600 dark:text-zinc-400">
          <span className="font-medium text-zinc-900 dark:text-zinc-100">{inviter.name}</span> invited you to
          join as <span className="font-medium text-zinc-900 dark:text-zinc-100">{ROLE_NAME[role]}</span>
        </p>
      </div>
      <div className="rounded-lg border border-zinc-200 border-l-4 border-l-cyan-500 px-4 py-3 dark:border-zinc-800 dark:border-l-cyan-400">
        <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Campaign</p>
        <h1 className="text-xl font-semibold tracking-tight [overflow-wrap:anywhere]">{campaign.title}</h1>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {role === 'viewer'
          ? 'As a viewer you can see everything in it and comment.'
          : 'As an editor you can add, change and complete its tasks and todos.'}
      </p>
      <Button size="lg" className="w-full" disabled={join.isPending} onClick={() => join.mutate()}>
        {join.isPending ? 'Joining…' : 'Join'}
      </Button>
    </Card>
  );
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { format, formatDistanceToNow } from 'date-fns';
import { LogOut, Monitor, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { type DeviceSession, describeUserAgent, deviceNames, signInMethodLabel } from '../../shared/devices';
import { toast, useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { useGuardedLogout } from '../app/useGuardedLogout';
import { useOidcProvider } from '../app/useSignIn';
import { Button } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Section } from '../components/ui/Section';
import { useViewer } from '../data/live';

const devicesKey = [SERVER_LIST_KEY, 'devices'] as const;

const PHONE_LIKE = /^(?:.* on )?(?:iPhone|Android)$|^A browser on (?:iPhone|Android)$/;

function ago(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : formatDistanceToNow(date, { addSuffix: true });
}

function day(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : format(date, 'd MMM yyyy');
}

/**
 * How a device signed in, and when. Single sign-on is named as its button was ('Sign in with
 * {name}'): the provider's name is asked only for a row that needs it, once a page.
 */
function SignedInWith({ device }: { device: DeviceSession }) {
  const when = day(device.created_at);
  return (
    <>
      {device.via === 'oidc' ? <OidcMethod /> : signInMethodLabel(device.via)}
      {when ? ` on ${when}` : null}
    </>
  );
}

/** A device's name, its tag (when it has one) quieter than the browser it tells apart. */
function NameWithTag({ name }: { name: string }) {
  const at = name.lastIndexOf(' · ');
  if (at < 0) return <span>{name}</span>;
  return (
    <span>
      {name.slice(0, at)}
      <span className="font-normal text-zinc-500 dark:text-zinc-400">{name.slice(at)}</span>
    </span>
  );
}

function OidcMethod() {
  const provider = useOidcProvider();
  return <>{signInMethodLabel('oidc', provider?.name)}</>;
}

/**
 * Preferences › Devices (ARCHITECTURE §4): where the person is signed in, how, and when each device was
 * last used, this one marked; 'Sign out' ends another device's session, 'Sign out everywhere' ends all
 * of them (this one through Log out's question when changes are still waiting to sync).
 */
export function DevicesSection() {
  const { send } = useDoor();
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const [ending, setEnding] = useState<{ device: DeviceSession; name: string } | null>(null);
  const [everywhere, setEverywhere] = useState(false);
  const guarded = useGuardedLogout({ everywhere: true });
  const devices = useQuery({
    queryKey: devicesKey,
    queryFn: () => send('server.devices'),
    enabled: !viewer.isGuest && viewer.online,
    staleTime: 30_000,
  });

  const signOut = async (device: DeviceSession, name: string) => {
    try {
      await send('server.signOutDevice', device.id);
      queryClient.setQueryData<DeviceSession[]>(devicesKey, (all) => all?.filter((d) => d.id !== device.id));
      toast({ title: 'Signed out', description: `${name} is signed out.` });
    } catch {
      toast({
        title: 'Could not sign that device out',
        description: 'Check your connection and try again.',
        variant: 'destructive',
      });
      void devices.refetch();
    }
  };

  let body: React.ReactNode;
  if (!viewer.online) {
    body = (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        You're offline. Your devices are listed when the connection returns.
      </p>
    );
  } else if (devices.isPending) {
    body = <p className="text-sm text-zinc-600 dark:text-zinc-400">Looking for your devices…</p>;
  } else if (devices.isError) {
    body = (
      <div className="flex flex-col gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Could not load your devices.</p>
        <Button variant="outline" onClick={() => void devices.refetch()} className="self-start">
          Try again
        </Button>
      </div>
    );
  } else {
    const list = devices.data;
    // Two devices with the same browser are told apart by a short tag (shared/devices.ts deviceNames).
    const names = deviceNames(list);
    body = (
      <div className="flex flex-col gap-3">
        <ul
          aria-label="Signed-in devices"
          className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {list.map((device) => {
            const name = names.get(device.id) ?? describeUserAgent(device.user_agent);
            const Icon = PHONE_LIKE.test(describeUserAgent(device.user_agent)) ? Smartphone : Monitor;
            return (
              <li key={device.id} className="flex flex-wrap items-center gap-3 p-3">
                <Icon aria-hidden className="size-5 shrink-0 text-zinc-500 dark:text-zinc-400" />
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900 dark:text-zinc-100">
                    <NameWithTag name={name} />
                    {device.current ? (
                      <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
                        This device
                      </span>
                    ) : null}
                  </p>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    <SignedInWith device={device} /> ·{' '}
                    {device.current ? 'Active now' : `Last used ${ago(device.last_seen_at)}`}
                  </p>
                </div>
                {device.current ? null : (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setEnding({ device, name })}
                    aria-label={`Sign out ${name}, last used ${ago(device.last_seen_at)}`}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
        <Button variant="outline" onClick={() => setEverywhere(true)} className="self-start">
          <LogOut aria-hidden />
          Sign out everywhere…
        </Button>
      </div>
    );
  }

  return (
    <Section
      id="pref-devices"
      title="Devices"
      description="Where you are signed in. Sign out a device you no longer use or do not recognise."
    >
      {body}
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => {
          if (!open) setEnding(null);
        }}
        title={`Sign out ${ending?.name ?? ''}?`}
        description="That device is signed out now: open, it says so at once, else when it next connects. Changes it has not synced yet stay on it."
        confirmLabel="Sign out"
        tone="danger"
        onConfirm={() => {
          if (ending) void signOut(ending.device, ending.name);
        }}
      />
      <ConfirmDialog
        open={everywhere}
        onOpenChange={setEverywhere}
        title="Sign out everywhere?"
        description="Every device signed in to your account is signed out, this one included."
        confirmLabel="Sign out everywhere"
        tone="danger"
        onConfirm={() => void guarded.logout()}
      />
      {guarded.dialog}
    </Section>
  );
}

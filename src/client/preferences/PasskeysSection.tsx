import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { KeyRound, Plus } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { describeUserAgent } from '../../shared/devices';
import { describePasskeyFailure, PASSKEY_NAME_MAX } from '../../shared/passkeyFailure';
import type { Passkey } from '../../shared/passkeys';
import { toast, useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { Button, Dialog, DialogClose, DialogContent, DialogFooter, Field, Input } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Section } from '../components/ui/Section';
import { useViewer } from '../data/live';

const passkeysKey = [SERVER_LIST_KEY, 'passkeys'] as const;

function ago(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : formatDistanceToNow(date, { addSuffix: true });
}

/** A name the person recognises later: the browser and system this passkey was made on. */
function defaultName(): string {
  const device = describeUserAgent(typeof navigator === 'undefined' ? '' : navigator.userAgent);
  return `Passkey on ${device}`.slice(0, PASSKEY_NAME_MAX);
}

/**
 * Preferences › Passkeys (ARCHITECTURE §4 'Other ways to sign in'): the passkeys that sign this person
 * in without a phone, with when each was added and last used; 'Add a passkey' asks a name, then the
 * browser's prompt; Remove asks first. Every failure is one sentence (describePasskeyFailure).
 */
export function PasskeysSection() {
  const { send } = useDoor();
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [newName, setNewName] = useState('');
  const [renameProblem, setRenameProblem] = useState<string | null>(null);
  // The row's Rename button: the dialog has no Radix trigger, so focus is handed back to it by hand.
  const renameOpener = useRef<HTMLElement | null>(null);
  const passkeys = useQuery({
    queryKey: passkeysKey,
    queryFn: () => send('server.passkeys'),
    enabled: !viewer.isGuest && viewer.online,
    staleTime: 30_000,
  });

  const openAdd = () => {
    setName(defaultName());
    setProblem(null);
    setAdding(true);
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = name.trim();
    if (chosen === '') return;
    setBusy(true);
    setProblem(null);
    try {
      const made = await send('server.addPasskey', chosen);
      queryClient.setQueryData<Passkey[]>(passkeysKey, (all) => [...(all ?? []), made]);
      setAdding(false);
      toast({ title: 'Passkey added', description: `${made.name} signs you in from now on.` });
    } catch (caught) {
      setProblem(describePasskeyFailure(caught, 'add'));
    } finally {
      setBusy(false);
    }
  };

  const openRename = (passkey: Passkey, opener: HTMLElement) => {
    renameOpener.current = opener;
    setNewName(passkey.name);
    setRenameProblem(null);
    setRenaming(passkey);
  };

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = newName.trim();
    if (!renaming || chosen === '') return;
    if (chosen === renaming.name) return setRenaming(null);
    setBusy(true);
    setRenameProblem(null);
    try {
      const renamed = await send('server.renamePasskey', { id: renaming.id, name: chosen });
      queryClient.setQueryData<Passkey[]>(passkeysKey, (all) =>
        all?.map((p) => (p.id === renamed.id ? renamed : p)),
      );
      setRenaming(null);
      toast({ title: 'Passkey renamed', description: `It is called ${renamed.name} now.` });
    } catch (caught) {
      const { status } = (caught ?? {}) as { status?: number };
      setRenameProblem(
        status === 404
          ? 'This passkey is gone. It may have been removed on another device.'
          : status === 0
            ? 'You are offline. Rename it when you are back online.'
            : 'Could not rename the passkey. Please try again.',
      );
      if (status === 404) void passkeys.refetch();
    } finally {
      setBusy(false);
    }
  };

  const remove = async (passkey: Passkey) => {
    try {
      await send('server.removePasskey', passkey.id);
      queryClient.setQueryData<Passkey[]>(passkeysKey, (all) => all?.filter((p) => p.id !== passkey.id));
      toast({ title: 'Passkey removed', description: `${passkey.name} no longer signs you in.` });
    } catch {
      toast({
        title: 'Could not remove the passkey',
        description: 'Check your connection and try again.',
        variant: 'destructive',
      });
      void passkeys.refetch();
    }
  };

  let body: React.ReactNode;
  if (!viewer.online) {
    body = (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        You're offline. Your passkeys are listed, and can be added, when the connection returns.
      </p>
    );
  } else if (passkeys.isPending) {
    body = <p className="text-sm text-zinc-600 dark:text-zinc-400">Looking for your passkeys…</p>;
  } else if (passkeys.isError) {
    body = (
      <div className="flex flex-col gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Could not load your passkeys.</p>
        <Button variant="outline" onClick={() => void passkeys.refetch()} className="self-start">
          Try again
        </Button>
      </div>
    );
  } else {
    const list = passkeys.data;
    body = (
      <div className="flex flex-col gap-3">
        {list.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No passkeys yet. Add one to sign in with this device's screen lock instead of a code.
          </p>
        ) : (
          <ul
            aria-label="Your passkeys"
            className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {list.map((passkey) => (
              <li key={passkey.id} className="flex flex-wrap items-center gap-3 p-3">
                <KeyRound aria-hidden className="size-5 shrink-0 text-zinc-500 dark:text-zinc-400" />
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium break-words text-zinc-900 dark:text-zinc-100">
                    {passkey.name}
                  </p>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    Added {ago(passkey.created_at)} ·{' '}
                    {passkey.last_used_at ? `Last used ${ago(passkey.last_used_at)}` : 'Never used'}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={(event) => openRename(passkey, event.currentTarget)}
                  aria-label={`Rename ${passkey.name}`}
                >
                  Rename
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setRemoving(passkey)}
                  aria-label={`Remove ${passkey.name}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <Button variant="outline" onClick={openAdd} className="self-start">
          <Plus aria-hidden />
          Add a passkey
        </Button>
      </div>
    );
  }

  return (
    <Section
      id="pref-passkeys"
      title="Passkeys"
      description="Sign in with your fingerprint, face or screen lock, without a phone number or code."
    >
      {body}
      <Dialog open={renaming !== null} onOpenChange={(open) => !busy && !open && setRenaming(null)}>
        <DialogContent
          title="Rename passkey"
          description="The name you know it by here; signing in with it stays the same."
          size="sm"
          onCloseAutoFocus={(event) => {
            if (!renameOpener.current?.isConnected) return;
            event.preventDefault();
            renameOpener.current.focus();
          }}
        >
          <PasskeyNameForm
            label="Rename passkey"
            value={newName}
            onChange={setNewName}
            onSubmit={rename}
            problem={renameProblem}
            busy={busy}
            submitText={busy ? 'Saving…' : 'Save'}
          />
        </DialogContent>
      </Dialog>
      <Dialog open={adding} onOpenChange={(open) => !busy && setAdding(open)}>
        <DialogContent
          title="Add a passkey"
          description="Name it after the device or password manager that keeps it. Your browser asks next."
          size="sm"
        >
          <PasskeyNameForm
            label="Add a passkey"
            value={name}
            onChange={setName}
            onSubmit={add}
            problem={problem}
            busy={busy}
            submitText={busy ? 'Waiting for your browser…' : 'Continue'}
          />
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={`Remove ${removing?.name ?? 'this passkey'}?`}
        description="It no longer signs you in. The passkey itself stays in your device or password manager until you delete it there."
        confirmLabel="Remove"
        tone="danger"
        onConfirm={() => {
          if (removing) void remove(removing);
        }}
      />
    </Section>
  );
}

/** A passkey's name in a dialog: adding one and renaming one ask it the same way. */
function PasskeyNameForm(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: (event: FormEvent) => Promise<void> | void;
  problem: string | null | undefined;
  busy: boolean;
  submitText: string;
}) {
  const empty = props.value.trim() === '';
  return (
    <form
      onSubmit={(event) => void props.onSubmit(event)}
      aria-label={props.label}
      className="flex flex-col gap-3"
    >
      <Field label="Passkey name" error={empty ? 'A name is required' : undefined}>
        {(field) => (
          <Input
            {...field}
            value={props.value}
            maxLength={PASSKEY_NAME_MAX}
            onChange={(e) => props.onChange(e.target.value)}
            autoFocus
          />
        )}
      </Field>
      {props.problem ? (
        <p
          role="alert"
          className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950/60 dark:text-red-300"
        >
          {props.problem}
        </p>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={props.busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={props.busy || empty}>
          {props.submitText}
        </Button>
      </DialogFooter>
    </form>
  );
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { format, formatDistanceToNow } from 'date-fns';
import { Copy, KeyRound, TriangleAlert } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import {
  type ApiToken,
  type ApiTokenCreated,
  MAX_LIVE_TOKENS,
  TOKEN_DAYS,
  TOKEN_EXPIRY_CHOICES,
  TOKEN_NAME_MAX,
  TOKEN_SCOPES,
  type TokenScope,
  tokenExpired,
} from '../../shared/tokens';
import { toast, useAuthState, useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { Button } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Badge } from '../components/ui/Badge';
import { Field } from '../components/ui/Field';
import { Input, inputClasses } from '../components/ui/Input';
import { Section } from '../components/ui/Section';
import { useViewer } from '../data/live';
import { ConnectCalendarDialog } from './ConnectCalendarDialog';

const SCOPE_TEXT: Record<TokenScope, { label: string; hint: string }> = {
  read: { label: 'Read', hint: 'See items, comments, labels and activity.' },
  write: { label: 'Write', hint: 'Create, change and delete items, comments and labels.' },
  webhooks: { label: 'Webhooks', hint: 'Manage webhooks.' },
  caldav: {
    label: 'CalDAV',
    hint: 'Sign a calendar or task app in to your tasks and todos (and nothing else).',
  },
};

const expiryText = (days: number) => (days === 365 ? '1 year' : `${days} days`);

const SECTION = {
  id: 'pref-api-tokens',
  title: 'API tokens',
  description: 'Let scripts, integrations and agents use Outpost as you, with only the access you choose.',
} as const;

/**
 * Preferences › API tokens (ARCHITECTURE §4 'Personal access tokens'): make a token with a name,
 * scopes and an expiry, see its secret once, list tokens with their last use, revoke one behind a
 * question. A guest is told tokens need an account, and nothing asks the server.
 */
export function ApiTokensSection() {
  const viewer = useViewer();
  return (
    <Section {...SECTION}>
      {viewer.isGuest ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          API tokens belong to an account: sign in to make one for your scripts and integrations.
        </p>
      ) : (
        <SignedInTokens online={viewer.online} />
      )}
    </Section>
  );
}

/** Why the server refused, in its words when it gave some (a 422's field message). */
function refusal(error: unknown): string {
  const { status, message, data } = (error ?? {}) as { status?: number; message?: unknown; data?: unknown };
  const errors = (data as { errors?: Record<string, string[]> } | undefined)?.errors;
  if (status === 0) return 'You are offline. Make the token when you are back online.';
  if (status === 422) {
    const first = errors ? Object.values(errors)[0]?.[0] : undefined;
    return first ?? (typeof message === 'string' ? message : 'This token cannot be made.');
  }
  return 'Could not make the token. Please try again.';
}

function SignedInTokens({ online }: { online: boolean }) {
  const { send } = useDoor();
  const userId = useAuthState((s) => s.user.id);
  const queryClient = useQueryClient();
  const key = [SERVER_LIST_KEY, 'apiTokens', userId] as const;
  const tokens = useQuery({
    queryKey: key,
    queryFn: () => send('server.tokens'),
    enabled: online,
    staleTime: 30_000,
  });
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  const revoke = async (token: ApiToken) => {
    try {
      await send('server.revokeToken', token.id);
      queryClient.setQueryData<ApiToken[]>(key, (list) => list?.filter((t) => t.id !== token.id));
      if (created?.id === token.id) setCreated(null);
      toast({
        title: 'Token revoked',
        description: `Scripts using “${token.name}” are refused from now on.`,
      });
    } catch {
      toast({
        title: 'Could not revoke the token',
        description: 'Check your connection and try again.',
        variant: 'destructive',
      });
    } finally {
      await queryClient.invalidateQueries({ queryKey: key });
    }
  };

  /** A new token joins the list at once (its secret never does), then the list is read again. */
  const listCreated = (token: ApiTokenCreated) => {
    const { token: _secret, ...listed } = token;
    queryClient.setQueryData<ApiToken[]>(key, (old) => [listed, ...(old ?? [])]);
    void queryClient.invalidateQueries({ queryKey: key });
  };

  const list = tokens.data ?? [];
  const live = list.filter((t) => !tokenExpired(t, new Date())).length;

  return (
    <div className="flex flex-col gap-5">
      {created ? <NewSecret token={created} onDone={() => setCreated(null)} /> : null}
      <CreateTokenForm
        disabled={!online || live >= MAX_LIVE_TOKENS}
        atLimit={live >= MAX_LIVE_TOKENS}
        onCreated={(token) => {
          setCreated(token);
          listCreated(token);
        }}
      />
      <ConnectCalendarDialog disabled={!online || live >= MAX_LIVE_TOKENS} onCreated={listCreated} />
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-medium text-zinc-900 dark:text-zinc-100">Your tokens</h3>
        {!online && !tokens.data ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Connect to the internet to see your tokens.
          </p>
        ) : tokens.isPending ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading your tokens…</p>
        ) : tokens.isError ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Could not load your tokens. Check your connection and reopen Preferences.
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No tokens yet. A token lets a script act as you, so make one per script and revoke it when the
            script is retired.
          </p>
        ) : (
          <TokenList tokens={list} onRevoke={setRevoking} />
        )}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        description="Every script using this token is refused at once (401). This cannot be undone: to let a script back in, make a new token."
        confirmLabel="Revoke token"
        tone="danger"
        onConfirm={() => {
          if (revoking) void revoke(revoking);
        }}
      />
    </div>
  );
}

function CreateTokenForm({
  disabled,
  atLimit,
  onCreated,
}: {
  disabled: boolean;
  atLimit: boolean;
  onCreated: (token: ApiTokenCreated) => void;
}) {
  const { send } = useDoor();
  const scopesId = useId();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>(['read']);
  const [days, setDays] = useState<number>(TOKEN_DAYS.default);
  const [error, setError] = useState<{ field: 'name' | 'scopes' | 'form'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return setError({ field: 'name', text: 'Name the token after what will use it.' });
    if (trimmed.length > TOKEN_NAME_MAX)
      return setError({ field: 'name', text: `A name may be at most ${TOKEN_NAME_MAX} characters.` });
    if (scopes.length === 0) return setError({ field: 'scopes', text: 'Choose at least one scope.' });
    setBusy(true);
    try {
      const token = await send('server.createToken', { name: trimmed, scopes, expires_in_days: days });
      setName('');
      setError(null);
      onCreated(token);
    } catch (caught) {
      setError({ field: 'form', text: refusal(caught) });
    } finally {
      setBusy(false);
    }
  };

  const toggle = (scope: TokenScope, on: boolean) => {
    setScopes((current) => TOKEN_SCOPES.filter((s) => (s === scope ? on : current.includes(s))));
    setError(null);
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <Field
          label="Token name"
          error={error?.field === 'name' ? error.text : undefined}
          hint="What will use it, such as ‘CI bot’ or ‘Backlog import’."
        >
          {(field) => (
            <Input
              {...field}
              value={name}
              maxLength={TOKEN_NAME_MAX + 20}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
            />
          )}
        </Field>
        <Field label="Expires after">
          {(field) => (
            <select
              {...field}
              value={String(days)}
              onChange={(e) => setDays(Number(e.target.value))}
              className={inputClasses()}
            >
              {TOKEN_EXPIRY_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {expiryText(choice)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={error?.field === 'scopes' ? `${scopesId}-error` : undefined}
      >
        <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">Scopes</legend>
        {TOKEN_SCOPES.map((scope) => (
          <label key={scope} className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
              className="mt-0.5 size-4 shrink-0 rounded border-zinc-300 accent-indigo-600 dark:border-zinc-600 dark:accent-indigo-400"
            />
            <span>
              <span className="font-medium text-zinc-900 dark:text-zinc-100">{SCOPE_TEXT[scope].label}</span>
              <span className="text-zinc-600 dark:text-zinc-400"> — {SCOPE_TEXT[scope].hint}</span>
            </span>
          </label>
        ))}
        {error?.field === 'scopes' ? (
          <p id={`${scopesId}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error.text}
          </p>
        ) : null}
      </fieldset>
      {error?.field === 'form' ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error.text}
        </p>
      ) : null}
      {atLimit ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          You have {MAX_LIVE_TOKENS} active tokens, the most there can be. Revoke one to make another.
        </p>
      ) : null}
      <Button type="submit" disabled={busy || disabled} className="self-start">
        <KeyRound aria-hidden />
        {busy ? 'Creating…' : 'Create token'}
      </Button>
    </form>
  );
}

/** The new token's secret, once: a monospace field, Copy, and the warning that it will not come back. */
function NewSecret({ token, onDone }: { token: ApiTokenCreated; onDone: () => void }) {
  const fieldId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      toast({ title: 'Token copied', description: 'Keep it somewhere safe, such as your CI’s secrets.' });
    } catch {
      // No clipboard (an insecure page, a refused permission): the field is selected to copy by hand.
      (document.getElementById(fieldId) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950/40"
      data-testid="new-token"
    >
      <label htmlFor={fieldId} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
        Your new token “{token.name}”
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={fieldId}
          readOnly
          value={token.token}
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs md:text-xs"
          aria-describedby={`${fieldId}-warning`}
        />
        <Button onClick={() => void copy()} className="shrink-0">
          <Copy aria-hidden />
          Copy token
        </Button>
      </div>
      <p id={`${fieldId}-warning`} className="flex gap-2 text-sm text-amber-900 dark:text-amber-200">
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
        Copy it now: it will not be shown again.
      </p>
      <Button variant="outline" onClick={onDone} className="self-start">
        Done
      </Button>
    </div>
  );
}

const when = (iso: string) => format(new Date(iso), 'MMM d, yyyy');
const ago = (iso: string | null) => (iso ? formatDistanceToNow(new Date(iso), { addSuffix: true }) : 'Never');

const SCOPE_TONE = { read: 'neutral', write: 'indigo', webhooks: 'purple', caldav: 'green' } as const;

function ScopeBadges({ scopes }: { scopes: readonly TokenScope[] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {scopes.map((scope) => (
        <Badge key={scope} tone={SCOPE_TONE[scope]}>
          {scope}
        </Badge>
      ))}
    </span>
  );
}

function Expiry({ token }: { token: ApiToken }) {
  return tokenExpired(token, new Date()) ? (
    <Badge tone="red">Expired {when(token.expires_at)}</Badge>
  ) : (
    <span>{when(token.expires_at)}</span>
  );
}

/** A table on desktop, stacked cards on phones (DESIGN.md, release 4). */
function TokenList({ tokens, onRevoke }: { tokens: ApiToken[]; onRevoke: (token: ApiToken) => void }) {
  const revokeButton = (token: ApiToken) => (
    <Button
      variant="outline"
      size="sm"
      onClick={() => onRevoke(token)}
      aria-label={`Revoke ${token.name}`}
      className="text-red-700 dark:text-red-400"
    >
      Revoke…
    </Button>
  );
  return (
    <>
      <table className="hidden w-full text-left text-sm md:table" aria-label="API tokens">
        <thead className="text-xs text-zinc-500 dark:text-zinc-400">
          <tr className="border-b border-zinc-200 dark:border-zinc-800">
            <th scope="col" className="py-2 pr-3 font-medium">
              Name
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Scopes
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Created
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Expires
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Last used
            </th>
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr
              key={token.id}
              data-token-id={token.id}
              className="border-b border-zinc-100 last:border-0 dark:border-zinc-800/60"
            >
              <td className="max-w-48 truncate py-2 pr-3 font-medium text-zinc-900 dark:text-zinc-100">
                {token.name}
              </td>
              <td className="py-2 pr-3">
                <ScopeBadges scopes={token.scopes} />
              </td>
              <td className="py-2 pr-3 whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                {when(token.created_at)}
              </td>
              <td className="py-2 pr-3 whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                <Expiry token={token} />
              </td>
              <td className="py-2 pr-3 whitespace-nowrap text-zinc-600 dark:text-zinc-400">
                {ago(token.last_used_at)}
              </td>
              <td className="py-2 text-right">{revokeButton(token)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="flex flex-col gap-2 md:hidden" aria-label="API tokens">
        {tokens.map((token) => (
          <li
            key={token.id}
            data-token-id={token.id}
            className="flex flex-col gap-2 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
          >
            <div className="flex items-start justify-between gap-3">
              <span className="min-w-0 font-medium break-words text-zinc-900 dark:text-zinc-100">
                {token.name}
              </span>
              {revokeButton(token)}
            </div>
            <ScopeBadges scopes={token.scopes} />
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-zinc-600 dark:text-zinc-400">
              <dt>Created</dt>
              <dd>{when(token.created_at)}</dd>
              <dt>Expires</dt>
              <dd>
                <Expiry token={token} />
              </dd>
              <dt>Last used</dt>
              <dd>{ago(token.last_used_at)}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Plus, RotateCw, Send, Trash2 } from 'lucide-react';
import { Checkbox, Switch } from 'radix-ui';
import { type FormEvent, useId, useState } from 'react';
import {
  nextLogCheck,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '../../shared/webhooks';
import { toast, useDoor } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { Badge, Button, Field, Input } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Section } from '../components/ui/Section';

const webhooksKey = [SERVER_LIST_KEY, 'webhooks'] as const;

const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

const checkboxClasses =
  'flex size-4 shrink-0 items-center justify-center rounded border border-zinc-400 bg-white text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 data-[state=checked]:border-indigo-600 data-[state=checked]:bg-indigo-600 dark:border-zinc-500 dark:bg-zinc-900';

/** A labelled Radix checkbox. */
function CheckRow({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Checkbox.Root
        id={id}
        checked={checked}
        onCheckedChange={(v) => onChange(v === true)}
        className={checkboxClasses}
      >
        <Checkbox.Indicator>
          <svg viewBox="0 0 12 12" className="size-3" aria-hidden>
            <path d="M2 6.5 5 9l5-6" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </Checkbox.Indicator>
      </Checkbox.Root>
      <label htmlFor={id} className="font-mono text-xs text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
    </div>
  );
}

/** The secret of a new (or rotated) webhook, shown this once. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toast({ title: 'Secret copied' });
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div
      role="status"
      className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950"
    >
      <label htmlFor={id} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
        Signing secret
      </label>
      <p className="text-sm text-amber-900 dark:text-amber-200">
        Copy it now: Outpost shows it only this once. Your receiver uses it to check each delivery’s
        signature.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
          className="font-mono text-xs md:text-xs"
        />
        <Button onClick={() => void copy()} className="shrink-0">
          <Copy aria-hidden />
          Copy
        </Button>
        <Button variant="outline" onClick={onDone} className="shrink-0">
          Done
        </Button>
      </div>
    </div>
  );
}

/** The form that adds a webhook. */
function AddWebhook({ onAdded }: { onAdded: (secret: string) => void }) {
  const { send } = useDoor();
  const queryClient = useQueryClient();
  const campaignId = useId();
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [campaign, setCampaign] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const campaigns = useQuery({
    queryKey: [SERVER_LIST_KEY, 'webhookCampaigns'],
    queryFn: () => send('server.campaignPage', { page: 1 }),
    staleTime: 60_000,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!all && events.length === 0) {
      setError('Choose at least one event.');
      return;
    }
    setBusy(true);
    try {
      const created = await send('webhooks.create', {
        url: url.trim(),
        events: all ? ['*'] : events,
        ...(campaign ? { campaign_id: Number(campaign) } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: webhooksKey });
      setUrl('');
      onAdded(created.secret);
    } catch (e) {
      setError(messageOf(e, 'Could not add the webhook.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" aria-label="Add a webhook">
      <Field label="URL" hint="An https address that accepts POST requests." error={error ?? undefined}>
        {(control) => (
          <Input
            {...control}
            type="url"
            inputMode="url"
            placeholder="https://example.com/outpost"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            required
          />
        )}
      </Field>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-zinc-900 dark:text-zinc-100">Events</legend>
        <CheckRow label="All events" checked={all} onChange={setAll} />
        {all ? null : (
          <div className="grid grid-cols-1 gap-2 pl-6 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((name) => (
              <CheckRow
                key={name}
                label={name}
                checked={events.includes(name)}
                onChange={(on) =>
                  setEvents((list) => (on ? [...list, name] : list.filter((e) => e !== name)))
                }
              />
            ))}
          </div>
        )}
      </fieldset>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={campaignId} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
          Campaign (optional)
        </label>
        <select
          id={campaignId}
          value={campaign}
          onChange={(e) => setCampaign(e.target.value)}
          className="h-10 rounded-lg border border-zinc-300 bg-white px-3 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        >
          <option value="">Everything I can see</option>
          {(campaigns.data?.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" disabled={busy} className="self-start">
        <Plus aria-hidden />
        {busy ? 'Adding…' : 'Add webhook'}
      </Button>
    </form>
  );
}

const STATUS_TONE = { pending: 'amber', delivered: 'green', failed: 'red' } as const;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * A webhook's delivery log, newest first. It follows the change signal like every server list, and
 * looks again on its own only while a delivery is pending, around its next try (nextLogCheck).
 */
function DeliveryLog({ hook }: { hook: Webhook }) {
  const { send } = useDoor();
  const log = useQuery({
    queryKey: [SERVER_LIST_KEY, 'webhookDeliveries', hook.id],
    queryFn: () => send('webhooks.deliveries', { id: hook.id, page: 1 }),
    refetchInterval: (query) => nextLogCheck(query.state.data?.data ?? []),
    staleTime: 0,
  });
  const retry = async (delivery: WebhookDelivery) => {
    try {
      await send('webhooks.retry', { id: hook.id, deliveryId: delivery.id });
      await log.refetch();
    } catch (e) {
      toast({ title: 'Could not retry', description: messageOf(e, ''), variant: 'destructive' });
    }
  };
  const rows = log.data?.data ?? [];
  if (log.isPending) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading deliveries…</p>;
  if (rows.length === 0)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">No deliveries yet. Try Send test.</p>;
  return (
    <ul className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Deliveries">
      {rows.map((d) => (
        <li key={d.id} className="flex flex-col gap-1 py-2 text-sm sm:flex-row sm:items-center sm:gap-3">
          <div className="flex min-w-0 flex-1 flex-col gap-0.5">
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
              <span className="font-mono text-xs text-zinc-800 dark:text-zinc-200">{d.event_type}</span>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{when(d.created_at)}</span>
            </div>
            {d.item ? (
              <p className="truncate text-sm text-zinc-900 dark:text-zinc-100" title={d.item.title}>
                {d.item.title}
              </p>
            ) : null}
            <p className="text-xs text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">
              {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
              {d.last_status_code !== null ? ` · last answer ${d.last_status_code}` : ''}
              {d.duration_ms !== null ? ` · ${d.duration_ms} ms` : ''}
              {d.last_error ? ` · ${d.last_error}` : ''}
              {d.next_attempt_at ? ` · next try ${when(d.next_attempt_at)}` : ''}
            </p>
          </div>
          {d.status === 'delivered' ? null : (
            <Button size="sm" variant="outline" onClick={() => void retry(d)} className="self-start">
              <RotateCw aria-hidden />
              Retry
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Which campaign a webhook listens inside, in words. */
export function campaignText(hook: Pick<Webhook, 'campaign_id' | 'campaign'>): string {
  if (hook.campaign_id === null) return 'All campaigns';
  return hook.campaign ? `Campaign: ${hook.campaign.title}` : 'A campaign you no longer see';
}

/** One webhook: its switch, its actions and its log. */
function WebhookRow({ hook, onSecret }: { hook: Webhook; onSecret: (secret: string) => void }) {
  const { send } = useDoor();
  const queryClient = useQueryClient();
  const switchId = useId();
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [SERVER_LIST_KEY] });
  const act = async (what: string, run: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await run();
      await refresh();
    } catch (e) {
      toast({ title: `Could not ${what}`, description: messageOf(e, ''), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const test = () =>
    act('send the test', async () => {
      const delivery = await send('webhooks.test', hook.id);
      setOpen(true);
      toast({
        title: delivery.status === 'delivered' ? 'Test delivered' : 'Test not delivered',
        description:
          delivery.status === 'delivered'
            ? `Your endpoint answered ${delivery.last_status_code}.`
            : (delivery.last_error ?? 'It will be tried again.'),
        ...(delivery.status === 'delivered' ? {} : { variant: 'destructive' as const }),
      });
    });

  return (
    <li className="flex flex-col gap-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-zinc-900 dark:text-zinc-100">{hook.url}</p>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {hook.events.includes('*') ? 'All events' : hook.events.join(', ')}
            {' · '}
            {campaignText(hook)}
          </p>
          {hook.disabled_reason ? (
            <p className="text-xs text-red-700 dark:text-red-300">{hook.disabled_reason}</p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          <Switch.Root
            id={switchId}
            checked={hook.enabled}
            disabled={busy}
            onCheckedChange={(enabled) =>
              void act('change it', () => send('webhooks.update', { id: hook.id, patch: { enabled } }))
            }
            className="relative h-6 w-11 shrink-0 rounded-full bg-zinc-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 data-[state=checked]:bg-indigo-600 dark:bg-zinc-700"
          >
            <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
          </Switch.Root>
          <label htmlFor={switchId} className="text-sm text-zinc-800 dark:text-zinc-200">
            {hook.enabled ? 'On' : 'Off'}
          </label>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" disabled={busy} onClick={() => void test()}>
          <Send aria-hidden />
          Send test
        </Button>
        <Button size="sm" variant="outline" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => setRotating(true)}>
          <RotateCw aria-hidden />
          Rotate secret
        </Button>
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => setDeleting(true)}>
          <Trash2 aria-hidden />
          Delete
        </Button>
      </div>
      {open ? <DeliveryLog hook={hook} /> : null}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this webhook?"
        description={`Outpost stops sending to ${hook.url} and forgets its delivery log.`}
        confirmLabel="Delete webhook"
        tone="danger"
        onConfirm={() => void act('delete it', () => send('webhooks.remove', hook.id))}
      />
      <ConfirmDialog
        open={rotating}
        onOpenChange={setRotating}
        title="Make a new secret?"
        description="For 24 hours deliveries carry signatures for both the old and the new secret; after that only the new one."
        confirmLabel="Rotate secret"
        onConfirm={() =>
          void act('rotate the secret', async () => onSecret(await send('webhooks.rotate', hook.id)))
        }
      />
    </li>
  );
}

/**
 * Preferences › Webhooks (ARCHITECTURE §4 'Webhooks'): signed deliveries of changes to a URL, the
 * secret shown once, a test, a switch, delete, and each webhook's delivery log.
 */
export function WebhooksSection() {
  const { send } = useDoor();
  const [secret, setSecret] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const list = useQuery({ queryKey: webhooksKey, queryFn: () => send('webhooks.list'), staleTime: 0 });
  const hooks = list.data ?? [];
  return (
    <Section
      id="pref-webhooks"
      title="Webhooks"
      description="Outpost can tell another service about changes as they happen, signed so it can trust them."
    >
      <div className="flex flex-col gap-4">
        {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
        {list.isError ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Could not load your webhooks. Check your connection.
          </p>
        ) : hooks.length > 0 ? (
          <ul className="flex flex-col gap-3" aria-label="Your webhooks">
            {hooks.map((hook) => (
              <WebhookRow key={hook.id} hook={hook} onSecret={setSecret} />
            ))}
          </ul>
        ) : null}
        {adding ? (
          <AddWebhook
            onAdded={(made) => {
              setSecret(made);
              setAdding(false);
            }}
          />
        ) : (
          <Button variant="outline" onClick={() => setAdding(true)} className="self-start">
            <Plus aria-hidden />
            Add webhook
          </Button>
        )}
      </div>
    </Section>
  );
}

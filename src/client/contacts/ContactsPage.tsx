import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, LogIn, Search, Smartphone, UserPlus, Users, WifiOff } from 'lucide-react';
import { type ChangeEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import {
  type ContactCandidate,
  CSV_ACCEPT,
  contactsFileProblem,
  parseContactsFile,
  phonesToSend,
  type SkippedLine,
} from '../../shared/csv';
import { normalizePhone } from '../../shared/phone';
import { toast, useDoor, useSignedInUser } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import {
  Avatar,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  EmptyState,
  Field,
  Input,
  SkeletonRows,
} from '../components/ui';
import { phoneContactsSupported } from '../data/contacts/contactPicker';
import { CONTACT_TEXTS, ContactImportError } from '../data/contacts/contactsImport';
import type { ToastInput } from '../stores/toastStore';
import { importSummary, mutualsAmong } from './importSummary';

export const OFFLINE_TEXT = "You're offline — this needs a connection";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const MUTUALS_QUERY_KEY = [SERVER_LIST_KEY, 'contacts', 'mutuals'] as const;

function toastOf(error: unknown, fallback: ToastInput): ToastInput {
  return error instanceof ContactImportError ? error.toast : fallback;
}

export default function ContactsPage() {
  const user = useSignedInUser();
  if (!user) {
    return (
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Contacts</h1>
        <EmptyState
          icon={<Users />}
          title="Sign In Required"
          description="You need to sign in to manage contacts"
          action={
            <Button asChild>
              <Link to="/login">
                <LogIn aria-hidden />
                Sign In
              </Link>
            </Button>
          }
        />
      </div>
    );
  }
  return <SignedInContacts />;
}

/** The file's first bytes are enough to tell text from an image or an archive. */
const SNIFF_BYTES = 64 * 1024;

function SignedInContacts() {
  const { send, syncStatus } = useDoor();
  const online = useStore(syncStatus, (s) => s.online);
  const queryClient = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  const [review, setReview] = useState<{ candidates: ContactCandidate[]; skipped: SkippedLine[] } | null>(
    null,
  );
  const candidates = review?.candidates ?? null;
  const [query, setQuery] = useState('');

  // Kept for the whole session: offline, the list last loaded stays on screen. Not asked for while
  // offline (no endless skeleton), and asked again as soon as the connection returns.
  const mutuals = useQuery({
    queryKey: MUTUALS_QUERY_KEY,
    queryFn: () => send('server.mutuals'),
    enabled: online,
    gcTime: Number.POSITIVE_INFINITY,
  });
  const { refetch: refetchMutuals } = mutuals;
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && !wasOnline.current) void refetchMutuals();
    wasOnline.current = online;
  }, [online, refetchMutuals]);
  // The assignee pickers read the device's copy of the mutuals: each fresh list from the server here
  // refreshes that copy too, so a new mutual contact is offered at once, not after a relaunch.
  useEffect(() => {
    if (mutuals.dataUpdatedAt > 0) void send('contacts.refreshMutuals');
  }, [mutuals.dataUpdatedAt, send]);

  // The data layer's import sends the valid phones and keeps them locally; its errors carry the toast.
  const importMutation = useMutation({
    mutationFn: async (list: ContactCandidate[]) => {
      await send('contacts.import', list);
      // Who of them is on Outpost now: the mutuals after the import (unknown if that read fails).
      const after = await queryClient
        .fetchQuery({ queryKey: MUTUALS_QUERY_KEY, queryFn: () => send('server.mutuals'), staleTime: 0 })
        .catch(() => null);
      return { sent: phonesToSend(list).length, onOutpost: after ? mutualsAmong(list, after) : null };
    },
    onSuccess: ({ sent, onOutpost }) => {
      toast({ title: 'Contacts imported', description: importSummary(sent, onOutpost) });
      // The fresh mutuals (above) refresh the device's copy too: see the effect on dataUpdatedAt.
      setReview(null);
    },
    onError: (error) => toast(toastOf(error, { ...CONTACT_TEXTS.failed, variant: 'destructive' })),
  });

  const importFromPhone = async () => {
    try {
      const picked = await send('contacts.pickFromPhone');
      if (picked.length === 0) throw new ContactImportError(CONTACT_TEXTS.cancelled);
      setReview({ candidates: picked, skipped: [] });
    } catch (error) {
      toast(toastOf(error, CONTACT_TEXTS.cancelled));
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
      const problem = contactsFileProblem({ name: file.name, type: file.type, size: file.size, bytes: head });
      if (problem) {
        setReview(null);
        toast({ title: 'Not a contacts file', description: problem, variant: 'destructive' });
        return;
      }
      const parsed = parseContactsFile(await file.text());
      // The skipped lines stay on screen with their reasons, also when none of the lines gave a contact.
      setReview(parsed);
      if (!parsed.candidates.some((c) => c.isValid)) throw new ContactImportError(CONTACT_TEXTS.noneFound);
    } catch (error) {
      toast({ ...toastOf(error, CONTACT_TEXTS.noneFound), variant: 'destructive' });
    }
  };

  const filtered = useMemo(() => {
    const list = mutuals.data ?? [];
    const q = query.trim().toLowerCase();
    if (!q) return list;
    const digits = q.replace(/\D/g, '');
    return list.filter(
      (m) =>
        m.name.toLowerCase().includes(q) || (digits !== '' && m.phone.replace(/\D/g, '').includes(digits)),
    );
  }, [mutuals.data, query]);

  const validCount = candidates?.filter((c) => c.isValid).length ?? 0;

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Contacts</h1>

      <Card role="region" aria-labelledby="import-heading">
        <CardHeader>
          <CardTitle id="import-heading">Import Contacts</CardTitle>
          <CardDescription>
            Find people you know who use Outpost. Only phone numbers are sent, and only people who have your
            number too show up.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 sm:flex-row">
          {/* Only where the Contact Picker API exists; elsewhere CSV is the way (no dead button). */}
          {phoneContactsSupported() ? (
            <Button variant="outline" onClick={() => void importFromPhone()}>
              <Smartphone aria-hidden />
              Import from Phone
            </Button>
          ) : null}
          <Button variant="outline" onClick={() => fileRef.current?.click()}>
            <FileText aria-hidden />
            Import from CSV
          </Button>
          <input
            ref={fileRef}
            type="file"
            accept={CSV_ACCEPT.join(',')}
            aria-label="CSV file of contacts"
            className="sr-only"
            tabIndex={-1}
            onChange={(e) => void onFile(e)}
          />
        </CardContent>
      </Card>

      {review ? (
        <Card role="region" aria-labelledby="review-heading">
          <CardHeader>
            <CardTitle id="review-heading">Review Import</CardTitle>
            <CardDescription>
              {plural(validCount, 'contact', 'contacts')} to send
              {review.skipped.length > 0 ? `, ${plural(review.skipped.length, 'line', 'lines')} skipped` : ''}
              .
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {review.candidates.length > 0 ? (
              <ul
                aria-label="Contacts to import"
                className="flex max-h-72 flex-col divide-y divide-zinc-100 overflow-y-auto rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
              >
                {review.candidates.map((c, i) => (
                  <li
                    // biome-ignore lint/suspicious/noArrayIndexKey: the same phone may appear twice in a pick
                    key={`${c.phone}-${i}`}
                    className="flex items-center gap-3 px-3 py-2 text-sm"
                  >
                    <Avatar name={c.name ?? c.phone} size="sm" />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium">{c.name ?? 'No name'}</span>
                      <span className="block text-zinc-500 tabular-nums dark:text-zinc-400">
                        {c.phone ? (normalizePhone(c.phone) ?? c.phone) : 'No phone'}
                      </span>
                    </span>
                    {c.isValid ? null : <Badge tone="red">Invalid</Badge>}
                  </li>
                ))}
              </ul>
            ) : null}
            {review.skipped.length > 0 ? (
              <section aria-labelledby="skipped-heading" className="flex flex-col gap-2">
                <h3 id="skipped-heading" className="text-sm font-medium">
                  Skipped {plural(review.skipped.length, 'line', 'lines')}
                </h3>
                <ul
                  aria-label="Skipped lines"
                  className="flex max-h-60 flex-col divide-y divide-zinc-100 overflow-y-auto rounded-lg border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800"
                >
                  {review.skipped.map((s) => (
                    <li key={s.line} className="flex gap-3 px-3 py-2">
                      <span className="w-14 shrink-0 text-zinc-500 tabular-nums dark:text-zinc-400">
                        Line {s.line}
                      </span>
                      <span className="min-w-0 flex-1">
                        <span className="block font-medium text-zinc-800 dark:text-zinc-200">{s.reason}</span>
                        <span className="block font-mono text-xs break-all text-zinc-500 dark:text-zinc-400">
                          {s.text}
                        </span>
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            {!online ? (
              <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
                {OFFLINE_TEXT}: importing sends the numbers to Outpost.
              </p>
            ) : null}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={() => setReview(null)} disabled={importMutation.isPending}>
                Cancel
              </Button>
              <Button
                onClick={() => candidates && importMutation.mutate(candidates)}
                disabled={validCount === 0 || importMutation.isPending || !online}
              >
                <UserPlus aria-hidden />
                {importMutation.isPending ? 'Importing...' : 'Import'}
              </Button>
            </div>
          </CardContent>
        </Card>
      ) : null}

      <Card role="region" aria-labelledby="mutuals-heading">
        <CardHeader>
          <CardTitle id="mutuals-heading">Your Contacts</CardTitle>
          <CardDescription>People you know who also use Outpost.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <Field label="Search contacts" labelHidden>
            {(field) => (
              <div className="relative">
                <Search
                  aria-hidden
                  className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400"
                />
                <Input
                  {...field}
                  type="search"
                  placeholder="Search contacts..."
                  className="pl-9"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                />
              </div>
            )}
          </Field>
          {!online ? (
            <div
              role="status"
              className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
            >
              <WifiOff aria-hidden className="mt-0.5 size-4 shrink-0" />
              <span>
                <span className="block font-medium">{OFFLINE_TEXT}</span>
                <span className="block text-xs opacity-90">
                  {mutuals.data
                    ? 'Showing your contacts as last loaded. They update when you are back online.'
                    : 'Your contacts load when you are back online.'}
                </span>
              </span>
            </div>
          ) : null}
          {!mutuals.data && !online ? null : mutuals.isPending ? (
            <SkeletonRows count={3} label="Loading contacts" />
          ) : mutuals.isError && !mutuals.data ? (
            <div
              role="alert"
              className="flex flex-wrap items-center gap-3 text-sm text-red-700 dark:text-red-300"
            >
              <span className="flex-1">Failed to load contacts: Outpost could not reach its server.</span>
              <Button
                variant="outline"
                size="sm"
                disabled={mutuals.isFetching}
                onClick={() => void mutuals.refetch()}
              >
                {mutuals.isFetching ? 'Trying…' : 'Try again'}
              </Button>
            </div>
          ) : filtered.length === 0 ? (
            <EmptyState
              icon={<Users />}
              title={query.trim() ? `No contacts match "${query.trim()}"` : 'No contacts yet'}
              description={
                query.trim() ? undefined : 'Import your contacts to find people you know on Outpost.'
              }
            />
          ) : (
            <ul className="flex flex-col divide-y divide-zinc-100 dark:divide-zinc-800">
              {filtered.map((m) => (
                <li key={m.id} className="flex items-center gap-3 py-2.5">
                  <Avatar name={m.name} size="md" />
                  <span className="min-w-0">
                    <span className="block truncate text-sm font-medium">{m.name}</span>
                    <span className="block text-sm text-zinc-500 tabular-nums dark:text-zinc-400">
                      {m.phone}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

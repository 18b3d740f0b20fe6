import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, LogIn, Search, Smartphone, UserPlus, Users } from 'lucide-react';
import { type ChangeEvent, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type ContactCandidate, CSV_ACCEPT } from '../../shared/csv';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { toast, useServices, useSignedInUser } from '../app/services';
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
import { CONTACT_TEXTS, ContactImportError } from '../data/contactsImport';
import type { ToastInput } from '../stores/toastStore';

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

function SignedInContacts() {
  const { server, contacts } = useServices();
  const queryClient = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  const [candidates, setCandidates] = useState<ContactCandidate[] | null>(null);
  const [query, setQuery] = useState('');

  const mutuals = useQuery({
    queryKey: MUTUALS_QUERY_KEY,
    queryFn: () => server.mutuals(),
  });

  // The data layer's import sends the valid phones and keeps them locally; its errors carry the toast.
  const importMutation = useMutation({
    mutationFn: (list: ContactCandidate[]) => contacts.import(list),
    onSuccess: (result) => {
      toast(result.toast);
      setCandidates(null);
      void queryClient.invalidateQueries({ queryKey: MUTUALS_QUERY_KEY });
      // The assignee pickers read the device's copy: new mutuals show there at once too.
      void contacts.refreshMutuals();
    },
    onError: (error) => toast(toastOf(error, { ...CONTACT_TEXTS.failed, variant: 'destructive' })),
  });

  const importFromPhone = async () => {
    try {
      const picked = await contacts.pickFromPhone();
      if (picked.length === 0) throw new ContactImportError(CONTACT_TEXTS.cancelled);
      setCandidates(picked);
    } catch (error) {
      toast(toastOf(error, CONTACT_TEXTS.cancelled));
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      const found = await contacts.fromCsv(await file.text());
      if (!found.some((c) => c.isValid)) throw new ContactImportError(CONTACT_TEXTS.noneFound);
      setCandidates(found);
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
          <Button variant="outline" onClick={() => void importFromPhone()}>
            <Smartphone aria-hidden />
            Import from Phone
          </Button>
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

      {candidates ? (
        <Card role="region" aria-labelledby="review-heading">
          <CardHeader>
            <CardTitle id="review-heading">Review Import</CardTitle>
            <CardDescription>
              {validCount} of {candidates.length} contacts have a usable phone number.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="flex max-h-72 flex-col divide-y divide-zinc-100 overflow-y-auto rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
              {candidates.map((c, i) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: the same phone may appear twice in a file
                  key={`${c.phone}-${i}`}
                  className="flex items-center gap-3 px-3 py-2 text-sm"
                >
                  <Avatar name={c.name ?? c.phone} size="sm" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{c.name ?? 'No name'}</span>
                    <span className="block text-zinc-500 tabular-nums dark:text-zinc-400">
                      {c.phone || 'No phone'}
                    </span>
                  </span>
                  {c.isValid ? null : <Badge tone="red">Invalid</Badge>}
                </li>
              ))}
            </ul>
            <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button
                variant="outline"
                onClick={() => setCandidates(null)}
                disabled={importMutation.isPending}
              >
                Cancel
              </Button>
              <Button
                onClick={() => importMutation.mutate(candidates)}
                disabled={validCount === 0 || importMutation.isPending}
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
          {mutuals.isPending ? (
            <SkeletonRows count={3} label="Loading contacts" />
          ) : mutuals.isError ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              Failed to load contacts. Check your connection and try again.
            </p>
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

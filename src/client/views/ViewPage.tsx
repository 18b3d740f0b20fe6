import { Bookmark, Filter, Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { dayKey } from '../../shared/agenda';
import { type FilterAst, parse, print, readFilterDate } from '../../shared/filter';
import { VIEW_SORTS, type View, type ViewSort } from '../../shared/filter/views';
import { useDoor } from '../app/door';
import { Button, Field, Input } from '../components/ui';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { cn } from '../components/ui/cn';
import { ListEmpty, ListLoading, PageColumn, PageHeader } from '../components/ui/PageParts';
import { useViewer } from '../data/live';
import { ItemList } from '../items/ItemList';
import { MemberAvatars } from '../sharing/MemberAvatars';
import { useSavedViews, useViewItems } from './queries';

/** The device's day, read at each render: a page left open past midnight counts from the new day. */
const useToday = () => dayKey(new Date());

/** The query with the part from the error's column on underlined, so the eye finds it. */
function Underlined({ query, column }: { query: string; column: number }) {
  const at = Math.min(Math.max(column - 1, 0), query.length);
  const rest = query.slice(at);
  return (
    <span className="font-mono text-xs text-zinc-600 dark:text-zinc-300" aria-hidden>
      {query.slice(0, at)}
      <span className="underline decoration-red-500 decoration-wavy underline-offset-2">
        {rest === '' ? '\u00a0\u00a0' : rest}
      </span>
    </span>
  );
}

/** The query's terms in their one spelling (a date in words with its day), `!` shown as 'not'. */
function termsOf(ast: FilterAst, today: string, negated = false): string[] {
  if (ast.kind === 'not') return termsOf(ast.term, today, !negated);
  if (ast.kind === 'and' || ast.kind === 'or')
    return [...termsOf(ast.left, today, negated), ...termsOf(ast.right, today, negated)];
  let text = print(ast);
  if (ast.kind === 'due' || ast.kind === 'start') {
    const day = readFilterDate(ast.date, today);
    if (day !== null && day !== ast.date) text += ` (${day})`;
  }
  return [negated ? `not ${text}` : text];
}

/** The terms the filter understood, in the quick add's chip style (read-only: the field is the source). */
function TermChips({ query, today }: { query: string; today: string }) {
  const parsed = parse(query);
  if (!parsed.ok) return null;
  const terms = termsOf(parsed.ast, today).slice(0, 20);
  return (
    <ul aria-label="Understood from the filter" className="flex flex-wrap gap-1.5">
      {terms.map((term, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: the same term may stand twice; the order is the query's
          key={`${index}:${term}`}
          className="inline-flex h-7 max-w-full min-w-0 items-center rounded-full border border-zinc-200 bg-zinc-50 px-2.5 text-xs font-medium text-zinc-700 dark:border-zinc-700 dark:bg-zinc-800/60 dark:text-zinc-200"
        >
          <span className="min-w-0 truncate">{term}</span>
        </li>
      ))}
    </ul>
  );
}

const SORT_LABELS: Record<ViewSort, string> = {
  due: 'Due date',
  priority: 'Priority',
  title: 'Title',
  manual: 'Manual order',
};

const selectClass =
  'h-10 rounded-md border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-950';

/**
 * 'Save view' (a new one), or, on a saved view its reader may change, 'Save changes' to it beside
 * 'Save as new view': a name, the order, and whom it is for (the viewer alone, or a campaign's members).
 */
function ViewForm({
  query,
  saved,
  onSaved,
}: {
  query: string;
  saved: View | undefined;
  onSaved: (id: number) => void;
}) {
  const { send } = useDoor();
  const { online } = useViewer();
  const [name, setName] = useState(saved?.name ?? '');
  const [sort, setSort] = useState<ViewSort>(saved?.sort ?? 'due');
  const [campaignId, setCampaignId] = useState<string>(
    saved?.campaign_id != null ? String(saved.campaign_id) : '',
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const today = useToday();
  const campaigns = useViewItems('type: campaign & !status: completed', today, 'title');
  const shareId = useId();
  const sortId = useId();

  const save = async (asNew: boolean) => {
    if (!online) {
      setError('Saving a view needs a connection: your query stays here until you are back online.');
      return;
    }
    setBusy(true);
    setError(null);
    const fields = {
      name: name.trim(),
      query,
      sort,
      campaign_id: campaignId === '' ? null : Number(campaignId),
    };
    try {
      const view =
        saved && !asNew
          ? await send('views.update', { id: saved.id, ...fields })
          : await send('views.create', { ...fields, uuid: crypto.randomUUID() });
      onSaved(view.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The view could not be saved.');
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(false);
  };

  return (
    <form
      onSubmit={submit}
      aria-label={saved ? `Change ${saved.name}` : 'Save view'}
      className="flex flex-col gap-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label="View name" className="flex-1" error={error ?? undefined}>
          {(control) => (
            <Input
              {...control}
              value={name}
              maxLength={100}
              required
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={sortId} className="text-sm font-medium">
            Sort by
          </label>
          <select
            id={sortId}
            value={sort}
            onChange={(e) => setSort(e.target.value as ViewSort)}
            className={selectClass}
          >
            {VIEW_SORTS.map((option) => (
              <option key={option} value={option}>
                {SORT_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={shareId} className="text-sm font-medium">
            Who sees it
          </label>
          <select
            id={shareId}
            value={campaignId}
            onChange={(e) => setCampaignId(e.target.value)}
            className={selectClass}
          >
            <option value="">Only me</option>
            {campaigns?.ok
              ? campaigns.items.map((c) => (
                  <option key={c.id} value={c.id}>
                    Members of {c.title}
                  </option>
                ))
              : null}
          </select>
        </div>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        {saved ? (
          <Button
            type="button"
            variant="outline"
            disabled={busy || name.trim() === ''}
            onClick={() => void save(true)}
          >
            Save as new view
          </Button>
        ) : null}
        <Button type="submit" disabled={busy || name.trim() === ''}>
          <Bookmark className="size-4" aria-hidden />
          {saved ? 'Save changes' : 'Save view'}
        </Button>
      </div>
    </form>
  );
}

/**
 * /views/new and /views/{id} (issue 66.3): a query in the filter language and, under it, the device's
 * items that match, live (an item changed on another device appears as it syncs), offline too. A
 * malformed query is underlined from its column with the parser's one-line message; 'Save view' keeps
 * it on the server, for the viewer or a campaign's members.
 */
export default function ViewPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const isNew = id === 'new';
  const views = useSavedViews();
  const saved = isNew ? undefined : views?.find((v) => String(v.id) === id);
  const [query, setQuery] = useState('');
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const today = useToday();
  const { isGuest, online, user } = useViewer();
  const { send } = useDoor();
  const [removeError, setRemoveError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  // Its creator changes it, or an owner or editor of the campaign it is shared with (as the server
  // rules); the campaign's row says the reader's role there.
  const sharedCampaign = useViewItems('type: campaign', today, 'title');
  const campaignRow =
    saved?.campaign_id != null && sharedCampaign?.ok
      ? sharedCampaign.items.find((c) => c.id === saved.campaign_id)
      : undefined;
  const mayChange =
    saved !== undefined &&
    (saved.created_by.id === user.id || (campaignRow !== undefined && campaignRow.my_role !== 'viewer'));
  const remove = async () => {
    if (!saved) return;
    try {
      await send('views.remove', saved.id);
      navigate('/today');
    } catch (e) {
      setRemoveError(e instanceof Error ? e.message : 'The view could not be deleted.');
    }
  };

  // A saved view fills the field once, when it arrives; what the person types then is theirs.
  useEffect(() => {
    if (saved && loadedFor !== id) {
      setQuery(saved.query);
      setLoadedFor(id ?? null);
      setEditing(false);
    }
    if (isNew && loadedFor !== 'new') {
      setQuery('');
      setLoadedFor('new');
    }
  }, [saved, id, isNew, loadedFor]);

  const sort: ViewSort = saved?.sort ?? 'due';
  const typed = query.trim();
  const result = useViewItems(typed === '' ? 'today | overdue' : query, today, sort);
  const error = typed !== '' && result && !result.ok ? result.error : null;
  const changed = isNew || (saved !== undefined && saved.query !== query);

  if (!isNew && views !== undefined && !saved) {
    return (
      <PageColumn>
        <PageHeader title="View" />
        <ListEmpty
          icon={<Bookmark aria-hidden />}
          title="This view is not on this device"
          hint="It may have been deleted, or unshared. Open it again once you are online."
        />
      </PageColumn>
    );
  }

  return (
    <PageColumn>
      <PageHeader
        title={
          <span className="inline-flex min-w-0 items-center gap-2">
            {saved ? (
              <Bookmark className="size-5 shrink-0 text-zinc-500 dark:text-zinc-400" aria-hidden />
            ) : (
              <Filter className="size-5 shrink-0 text-zinc-500 dark:text-zinc-400" aria-hidden />
            )}
            <span className="truncate">{saved ? saved.name : 'New view'}</span>
            {saved?.campaign_id != null ? <MemberAvatars campaignId={saved.campaign_id} /> : null}
          </span>
        }
        subtitle={
          result?.ok
            ? `${saved?.campaign_id != null ? 'Shared · ' : ''}${result.total} ${result.total === 1 ? 'item' : 'items'}`
            : 'Filter'
        }
      />
      <div className="mb-4 flex flex-col gap-3">
        <Field
          label="Filter"
          hint={
            error
              ? undefined
              : 'For example: p1 & due before: friday, +errands | #Launch, assigned: me & !status: completed'
          }
          error={error ? error.message : undefined}
        >
          {(control) => (
            <Input
              {...control}
              value={query}
              autoComplete="off"
              spellCheck={false}
              placeholder="today | overdue"
              maxLength={500}
              className={cn('font-mono', error && 'border-red-500 dark:border-red-500')}
              onChange={(e) => setQuery(e.target.value)}
            />
          )}
        </Field>
        {error ? <Underlined query={query} column={error.column} /> : null}
        {!error && typed !== '' ? <TermChips query={query} today={today} /> : null}
        {saved && mayChange ? (
          <div className="flex flex-wrap items-center gap-3">
            <Button
              variant="outline"
              size="sm"
              aria-expanded={editing || changed}
              onClick={() => setEditing((open) => !open)}
            >
              <Pencil aria-hidden />
              Edit view
            </Button>
            <Button variant="outline" size="sm" disabled={!online} onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden />
              Delete view
            </Button>
            <ConfirmDialog
              open={confirming}
              onOpenChange={setConfirming}
              title={`Delete “${saved.name}”?`}
              description={
                saved.campaign_id !== null
                  ? 'The campaign’s members lose it too. The items it shows stay.'
                  : 'The items it shows stay.'
              }
              confirmLabel="Delete view"
              tone="danger"
              onConfirm={() => void remove()}
            />
            {removeError ? (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {removeError}
              </p>
            ) : null}
            {!online ? (
              <p className="text-sm text-zinc-500 dark:text-zinc-400">Deleting needs a connection.</p>
            ) : null}
          </div>
        ) : null}
        {isNew && !isGuest && typed !== '' && !error ? (
          <ViewForm query={query} saved={undefined} onSaved={(newId) => navigate(`/views/${newId}`)} />
        ) : null}
        {saved && (changed || editing) && !isGuest && typed !== '' && !error ? (
          mayChange ? (
            <ViewForm
              key={`${saved.id}:${saved.updated_at}`}
              query={query}
              saved={saved}
              onSaved={(savedId) => {
                setEditing(false);
                navigate(`/views/${savedId}`);
              }}
            />
          ) : (
            <ViewForm query={query} saved={undefined} onSaved={(newId) => navigate(`/views/${newId}`)} />
          )
        ) : null}
      </div>
      {result === undefined ? (
        <ListLoading label="Finding items..." rows={4} />
      ) : !result.ok ? null : result.items.length === 0 ? (
        <ListEmpty icon={<Filter aria-hidden />} title="Nothing matches" hint="Change the filter above." />
      ) : (
        <ItemList items={result.items} label={saved ? `Items in ${saved.name}` : 'Matching items'} />
      )}
    </PageColumn>
  );
}

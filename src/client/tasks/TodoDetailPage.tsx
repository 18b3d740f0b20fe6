import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { PageColumn } from '../components/ui/PageParts';
import {
  AssigneeFact,
  DateFact,
  EstimateFact,
  LabelsFact,
  NO_OPTIONAL_FACTS,
  ParentFact,
  PriorityFact,
  ReminderFact,
  RepeatFact,
  useOptionalFacts,
} from '../items/DetailEditors';
import {
  DetailHeading,
  DetailLoading,
  DetailNotFound,
  Fact,
  ViewerFacts,
  ViewerNote,
} from '../items/DetailParts';
import { itemHref, statusText } from '../items/itemStyle';
import { useItem } from '../items/queries';
import { useItemAddress } from '../items/useItemAddress';
import { TimePanel } from '../time/TimePanel';

const TODO_FACTS = ['start_date', 'due_date', 'remind_at', 'recurrence', 'estimate_minutes'] as const;

// The timeline (comments, history) loads after the page, as on a task's: TanStack Query, linkify and the picker with it.
const Timeline = lazy(() => import('../comments/Timeline'));

/**
 * A todo's own page (issue 31: a timeline on every task, todo and campaign page): its facts, as a
 * task's page shows them, and the same timeline. A todo's row keeps its title for renaming in place;
 * its menu's Open, its Enter-less link and its comment count lead here.
 */
export default function TodoDetailPage() {
  const id = Number(useParams().id);
  const todo = useItem(Number.isFinite(id) ? id : 0);
  useItemAddress(todo, id);
  const parent = useItem(todo?.parent_id ?? 0);
  const grandparent = useItem(parent?.parent_id ?? 0);
  const optional = useOptionalFacts(todo ?? NO_OPTIONAL_FACTS, TODO_FACTS);

  if (todo === undefined) return <DetailLoading label="Loading todo..." />;
  if (todo === null || todo.type !== 'todo') {
    return <DetailNotFound title="Todo not found" back={{ to: '/', label: 'Back to Home' }} itemId={id} />;
  }
  // The parent as the device has it, else the server's summary (a parent the viewer does not see is neither).
  const parentSummary = parent
    ? { id: parent.id, title: parent.title, type: parent.type }
    : todo.parent
      ? { id: todo.parent.id, title: todo.parent.title, type: todo.parent.type }
      : null;
  const backHref = parentSummary ? itemHref(parentSummary) : null;
  const back = parentSummary && backHref ? { to: backHref, label: parentSummary.title } : null;
  // The campaign the todo lies in, whose owner may delete any comment (§4): its parent or grandparent.
  const campaign =
    parent?.type === 'campaign' ? parent : grandparent?.type === 'campaign' ? grandparent : null;
  // A viewer of the campaign reads the todo and changes nothing (§5 'Roles').
  const readOnly = todo.my_role === 'viewer';

  return (
    <PageColumn>
      <DetailHeading item={todo} back={back} readOnly={readOnly} />
      {readOnly ? (
        <>
          <ViewerNote />
          <ViewerFacts
            item={todo}
            parent={parentSummary ? { label: 'In', title: parentSummary.title } : null}
          />
        </>
      ) : (
        <dl className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Fact label="Created by">{todo.created_by?.name ?? 'Unknown'}</Fact>
          <AssigneeFact item={todo} />
          <Fact label="Status">{statusText(todo.status)}</Fact>
          <PriorityFact item={todo} />
          {optional.shown('start_date') ? <DateFact item={todo} field="start_date" label="Start" /> : null}
          {optional.shown('due_date') ? <DateFact item={todo} field="due_date" label="Due" /> : null}
          {optional.shown('remind_at') ? <ReminderFact item={todo} /> : null}
          {optional.shown('estimate_minutes') ? <EstimateFact item={todo} /> : null}
          {optional.shown('recurrence') ? <RepeatFact item={todo} /> : null}
          <ParentFact item={todo} parent={parentSummary} />
          <LabelsFact item={todo} />
        </dl>
      )}
      {readOnly ? null : optional.addButtons}
      <TimePanel item={todo} readOnly={readOnly} />
      <Suspense fallback={null}>
        <Timeline item={todo} ownerId={campaign ? campaign.user_id : null} />
      </Suspense>
    </PageColumn>
  );
}

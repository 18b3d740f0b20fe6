import { CheckSquare } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { ListEmpty, ListLoading, PageColumn, ShowMore } from '../components/ui/PageParts';
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
  ProgressBlock,
  ViewerFacts,
  ViewerNote,
} from '../items/DetailParts';
import { ItemList } from '../items/ItemList';
import { statusText } from '../items/itemStyle';
import { useOrderMutations } from '../items/orderMutations';
import { QuickAddCard } from '../items/QuickAddCard';
import { preloadSortable } from '../items/sortableModule';
import { TaskTemplateMenu } from '../items/TaskTemplateMenu';
import { useItemAddress } from '../items/useItemAddress';
import { TimePanel } from '../time/TimePanel';
import { useTask as useItem, useTaskInside, useTaskProgress, useTaskTodosPage } from './queries';

// This page's lists can be reordered: drag and drop loads beside its rows, not after them.
void preloadSortable();

const TASK_FACTS = ['start_date', 'due_date', 'remind_at', 'recurrence', 'estimate_minutes'] as const;

// The timeline (comments, history) loads after the page: TanStack Query, linkify and the picker with it.
const Timeline = lazy(() => import('../comments/Timeline'));

export default function TaskDetailPage() {
  const id = Number(useParams().id);
  const task = useItem(Number.isFinite(id) ? id : 0);
  useItemAddress(task, id);
  const parent = useItem(task?.parent_id ?? 0);
  // The section shows a page; progress and the Complete/Reopen button's open todos come from the
  // task's counters (one key read each), never from loading every todo.
  const page = useTaskTodosPage(id);
  const progress = useTaskProgress(Number.isFinite(id) ? id : 0);
  const inside = useTaskInside(Number.isFinite(id) ? id : 0);
  const optional = useOptionalFacts(task ?? NO_OPTIONAL_FACTS, TASK_FACTS);
  const order = useOrderMutations();

  if (task === undefined) return <DetailLoading label="Loading task..." />;
  if (task === null || task.type !== 'task') {
    return <DetailNotFound title="Task not found" back={{ to: '/', label: 'Back to Home' }} itemId={id} />;
  }
  const { total, completed } = progress ?? { total: 0, completed: 0 };
  const parentTitle = parent?.title ?? task.parent?.title ?? null;
  const back =
    task.parent_id && parentTitle ? { to: `/campaigns/${task.parent_id}`, label: parentTitle } : null;

  // A viewer of the campaign reads the task and changes nothing (§5 'Roles').
  const readOnly = task.my_role === 'viewer';

  return (
    <PageColumn>
      <DetailHeading item={task} back={back} inside={inside} readOnly={readOnly} />
      {readOnly ? null : (
        <div className="-mt-2 mb-4 flex flex-wrap items-center gap-3">
          <TaskTemplateMenu task={task} />
        </div>
      )}
      {readOnly ? (
        <>
          <ViewerNote />
          <ViewerFacts
            item={task}
            parent={parentTitle ? { label: 'Campaign', title: parentTitle } : null}
            endDate
          />
        </>
      ) : (
        <dl className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Fact label="Created by">{task.created_by?.name ?? 'Unknown'}</Fact>
          <AssigneeFact item={task} />
          <Fact label="Status">{statusText(task.status)}</Fact>
          <PriorityFact item={task} />
          {optional.shown('start_date') ? <DateFact item={task} field="start_date" label="Start" /> : null}
          {optional.shown('due_date') ? <DateFact item={task} field="due_date" label="Due" /> : null}
          {/* A task's end date comes only from an import (a Todoist DEADLINE): shown and editable while
              set, never offered, since the spec gives end dates to campaigns. */}
          {task.end_date ? <DateFact item={task} field="end_date" label="End date" /> : null}
          {optional.shown('remind_at') ? <ReminderFact item={task} /> : null}
          {optional.shown('estimate_minutes') ? <EstimateFact item={task} /> : null}
          {optional.shown('recurrence') ? <RepeatFact item={task} /> : null}
          <ParentFact
            item={task}
            parent={
              task.parent_id && parentTitle
                ? { id: task.parent_id, title: parentTitle, type: 'campaign' }
                : null
            }
          />
          <LabelsFact item={task} />
        </dl>
      )}
      {readOnly ? null : optional.addButtons}
      <TimePanel item={task} readOnly={readOnly} />
      {total > 0 ? <ProgressBlock total={total} completed={completed} /> : null}
      <section aria-labelledby="todos-heading" className="mt-6 flex flex-col gap-3">
        <h2 id="todos-heading" className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
          Todos
        </h2>
        {readOnly ? null : <QuickAddCard types={['todo']} parentId={task.id} />}
        {page.items === undefined ? (
          <ListLoading label="Loading items..." rows={3} />
        ) : page.items.length === 0 ? (
          <ListEmpty icon={<CheckSquare aria-hidden />} title="No todos yet. Add your first todo above!" />
        ) : (
          <ItemList
            items={page.items}
            label={`Todos of ${task.title}`}
            showParent={false}
            onMove={readOnly ? undefined : (item, to) => void order.move(page.items ?? [], item, to)}
            footer={
              <ShowMore more={page.more} onMore={page.showMore} shown={page.items.length} total={total} />
            }
          />
        )}
      </section>
      <Suspense fallback={null}>
        {/* The campaign's owner may delete any comment in it (§4). */}
        <Timeline item={task} ownerId={parent?.type === 'campaign' ? parent.user_id : null} />
      </Suspense>
    </PageColumn>
  );
}

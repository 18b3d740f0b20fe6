import { CheckSquare } from 'lucide-react';
import { useParams } from 'react-router';
import { subtreeProgress } from '../../shared/progress';
import {
  AssigneeFact,
  DateFact,
  ParentFact,
  ReminderFact,
  RepeatFact,
} from '../components/items/DetailEditors';
import {
  DetailHeading,
  DetailLoading,
  DetailNotFound,
  Fact,
  ProgressBlock,
} from '../components/items/DetailParts';
import { ItemList } from '../components/items/ItemList';
import { ListEmpty, ListLoading, PageColumn } from '../components/items/PageParts';
import { QuickAddCard } from '../components/items/QuickAddCard';
import { statusText } from '../items/itemStyle';
import { useTaskTodos as useChildren, useTask as useItem } from './queries';

export default function TaskDetailPage() {
  const id = Number(useParams().id);
  const task = useItem(Number.isFinite(id) ? id : 0);
  const parent = useItem(task?.parent_id ?? 0);
  const todos = useChildren(id);

  if (task === undefined) return <DetailLoading label="Loading task..." />;
  if (task === null || task.type !== 'task') {
    return <DetailNotFound title="Task not found" back={{ to: '/', label: 'Back to Home' }} />;
  }
  const { total, completed } = subtreeProgress(todos ?? [], task.id);
  const parentTitle = parent?.title ?? task.parent?.title ?? null;
  const back =
    task.parent_id && parentTitle ? { to: `/campaigns/${task.parent_id}`, label: parentTitle } : null;

  return (
    <PageColumn>
      <DetailHeading item={task} back={back} descendants={todos} />
      <dl className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Fact label="Created by">{task.created_by?.name ?? 'Unknown'}</Fact>
        <AssigneeFact item={task} />
        <Fact label="Status">{statusText(task.status)}</Fact>
        <DateFact item={task} field="due_date" label="Due" />
        <ReminderFact item={task} />
        <RepeatFact item={task} />
        <ParentFact
          item={task}
          parent={
            task.parent_id && parentTitle
              ? { id: task.parent_id, title: parentTitle, type: 'campaign' }
              : null
          }
        />
      </dl>
      {total > 0 ? <ProgressBlock total={total} completed={completed} /> : null}
      <section aria-labelledby="todos-heading" className="mt-6 flex flex-col gap-3">
        <h2 id="todos-heading" className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
          Todos
        </h2>
        <QuickAddCard types={['todo']} parentId={task.id} />
        {todos === undefined ? (
          <ListLoading label="Loading items..." rows={3} />
        ) : todos.length === 0 ? (
          <ListEmpty icon={<CheckSquare aria-hidden />} title="No todos yet. Add your first todo above!" />
        ) : (
          <ItemList items={todos} label={`Todos of ${task.title}`} showParent={false} />
        )}
      </section>
    </PageColumn>
  );
}

import { type AssigneeOption, assigneeName } from './assignees';

/**
 * The options of an assignee select: Unassigned, the item's current assignee when the viewer could not
 * pick them (someone else assigned them), then the people the viewer may assign.
 */
export function AssigneeOptions({
  item,
  options,
}: {
  item: { assigned_to: number | null; assignedUser?: { name: string } | null };
  options: readonly AssigneeOption[];
}) {
  const stranger = item.assigned_to !== null && !options.some((o) => o.id === item.assigned_to);
  return (
    <>
      <option value="">Unassigned</option>
      {stranger ? (
        <option value={String(item.assigned_to)}>
          {assigneeName(item.assigned_to, [], item.assignedUser)}
        </option>
      ) : null}
      {options.map((o) => (
        <option key={o.id} value={String(o.id)}>
          {o.name}
        </option>
      ))}
    </>
  );
}

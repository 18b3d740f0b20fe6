/**
 * The four sample assignees (ids 1 to 4) the server seeds. The spec hard-codes them in the pickers
 * rather than fetching them, so guests can pick them too.
 */
export const SAMPLE_ASSIGNEES = [
  { id: 1, name: 'Alex Morgan' },
  { id: 2, name: 'Sam Rivera' },
  { id: 3, name: 'Jordan Lee' },
  { id: 4, name: 'Taylor Kim' },
] as const;

export interface AssigneeOption {
  id: number;
  name: string;
}

/**
 * Picker options: yourself first (when signed in), then mutual contacts, then the sample users,
 * without duplicates. 'Unassigned' (0) is added by the pickers themselves.
 */
export function assigneeOptions(
  me: AssigneeOption | null,
  mutuals: readonly AssigneeOption[] = [],
): AssigneeOption[] {
  const out: AssigneeOption[] = [];
  const seen = new Set<number>();
  const add = (o: AssigneeOption) => {
    if (o.id <= 0 || seen.has(o.id)) return;
    seen.add(o.id);
    out.push(o);
  };
  if (me) add({ id: me.id, name: `${me.name} (you)` });
  for (const m of mutuals) add(m);
  for (const s of SAMPLE_ASSIGNEES) add(s);
  return out;
}

/** A display name for an assignee id, from the item's own relation or the known options. */
export function assigneeName(
  id: number | null | undefined,
  options: readonly AssigneeOption[],
  fromItem?: { name: string } | null,
): string | null {
  if (id === null || id === undefined || id === 0) return null;
  if (fromItem?.name) return fromItem.name;
  return options.find((o) => o.id === id)?.name.replace(/ \(you\)$/, '') ?? `User ${id}`;
}

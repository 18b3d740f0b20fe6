/**
 * The four sample assignees (ids 1 to 4) the server may seed: names for items that already name
 * them. The pickers offer them only where the server says it has them (P22).
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

/** Who a shared campaign holds and who left it (M15), as an assignee picker reads them. */
export interface CampaignRoster {
  members: readonly AssigneeOption[];
  departed: readonly number[];
}

/**
 * Picker options: yourself first (when signed in), then the campaign's members (inside one), mutual
 * contacts, then the sample users the server seeded, without duplicates; a guest gets none, so nobody
 * is offered whom a sign-in would find missing (P22). Inside a campaign nobody who left it or was
 * removed is offered: they could never open the item (M14, M15). Inside a shared campaign (`shared`,
 * or a roster of more than its owner) only its people are: no mutual contact who is not a member and
 * no sample user, whom the server refuses there (M16). 'Unassigned' (0) is added by the pickers
 * themselves.
 */
export function assigneeOptions(
  me: AssigneeOption | null,
  mutuals: readonly AssigneeOption[] = [],
  samples: readonly AssigneeOption[] = [],
  roster: CampaignRoster | null = null,
  shared = false,
): AssigneeOption[] {
  const out: AssigneeOption[] = [];
  const seen = new Set<number>(roster?.departed ?? []);
  const add = (o: AssigneeOption) => {
    if (o.id <= 0 || seen.has(o.id)) return;
    seen.add(o.id);
    out.push(o);
  };
  if (me) add({ id: me.id, name: `${me.name} (you)` });
  for (const m of roster?.members ?? []) add(m);
  // Offline before the roster was read, a shared campaign offers yourself alone: better one name
  // fewer than a name the server would refuse when the change goes up.
  if (shared || (roster?.members.length ?? 0) > 1) return out;
  for (const m of mutuals) add(m);
  for (const s of samples) add(s);
  return out;
}

/** Whether a campaign as the device has it is shared (M16): members besides its owner, or the caller is one. */
export function isShared(
  campaign: { my_role?: string | null; members_count?: number | null } | null,
): boolean {
  if (!campaign) return false;
  return campaign.my_role === 'editor' || campaign.my_role === 'viewer' || (campaign.members_count ?? 0) > 1;
}

/** A display name for an assignee id, from the item's own relation or the known options. */
export function assigneeName(
  id: number | null | undefined,
  options: readonly AssigneeOption[],
  fromItem?: { name: string } | null,
): string | null {
  if (id === null || id === undefined || id === 0) return null;
  if (fromItem?.name) return fromItem.name;
  return (
    options.find((o) => o.id === id)?.name.replace(/ \(you\)$/, '') ??
    SAMPLE_ASSIGNEES.find((s) => s.id === id)?.name ??
    `User ${id}`
  );
}

import { Check, Copy, Link2, LogIn, LogOut, Trash2, UserPlus, Users, WifiOff } from 'lucide-react';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  INVITE_DAYS,
  INVITE_USES,
  MEMBER_ROLES,
  type MemberRole,
  mayDo,
  type Role,
} from '../../shared/membership';
import { inviteCreateSchema } from '../../shared/membershipSchemas';
import { useSignedInUser } from '../app/door';
import { Avatar, Button, Dialog, DialogContent, DialogTrigger, Input } from '../components/ui';
import ConfirmDialog from '../components/ui/AlertDialog';
import { cn, focusRing } from '../components/ui/cn';
import { useMutuals, useViewer } from '../items/queries';
import { errorText, useInviteMutations, useMemberMutations } from './mutations';
import {
  type CampaignMember,
  type CreatedInvite,
  type InviteSummary,
  meIn,
  roleOf,
  useInvites,
  useMembers,
} from './queries';

/** Why a person is not in the contact picker, said plainly (issue 50), with the way that works. */
export const PICKER_WHY =
  'People appear here when you both have each other’s number in your contacts and both use Outpost. Someone missing? Send them an invite link instead.';

export const OFFLINE_TEXT = "You're offline — this needs a connection";

export const ROLE_NAME: Record<Role, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

const selectClasses = cn(
  'h-10 rounded-lg border border-zinc-300 bg-white px-2 text-base text-zinc-900 md:text-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
  focusRing,
);

const sectionTitle = 'text-sm font-semibold text-zinc-900 dark:text-zinc-100';

export interface ShareCampaign {
  id: number;
  title: string;
  user_id?: number;
  my_role?: Role | null;
}

/**
 * The campaign header's Share control (ARCHITECTURE §4 'Campaign members and invites'). Members are
 * the server's, so a guest is offered sign-in instead, and a campaign not yet on the server waits.
 */
export function ShareButton({ campaign }: { campaign: ShareCampaign }) {
  const user = useSignedInUser();
  const [open, setOpen] = useState(false);
  if (!user) {
    return (
      <Button variant="outline" size="sm" asChild>
        <Link to="/login">
          <LogIn aria-hidden />
          Sign in to share
        </Link>
      </Button>
    );
  }
  if (campaign.id <= 0) {
    return (
      <Button variant="outline" size="sm" disabled title="It can be shared once it has synced">
        <Users aria-hidden />
        Share
      </Button>
    );
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Users aria-hidden />
          Share
        </Button>
      </DialogTrigger>
      {open ? (
        <DialogContent
          title={`Share “${campaign.title}”`}
          description="People with access to this campaign"
          // The page may still move focus as it settles (a lazy part loading): that is not the user leaving.
          onFocusOutside={(event) => event.preventDefault()}
        >
          <ShareDialogBody campaign={campaign} onLeft={() => setOpen(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** The dialog's contents: members, adding people, leaving, and (for the owner) invite links. */
export function ShareDialogBody({ campaign, onLeft }: { campaign: ShareCampaign; onLeft: () => void }) {
  const viewer = useViewer();
  const members = useMembers(campaign.id);
  const me = meIn(members.data, viewer.user.id);
  // Until the list arrives: the item's own word, or ownership by creation.
  const myRole: Role | null =
    me?.role ?? roleOf(campaign) ?? (campaign.user_id === viewer.user.id ? 'owner' : null);
  const owner = myRole !== null && mayDo(myRole, 'manageMembers');

  if (!viewer.online && !members.data) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <WifiOff className="size-4" aria-hidden />
        {OFFLINE_TEXT}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {!viewer.online ? (
        <p role="status" className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <WifiOff className="size-4" aria-hidden />
          {OFFLINE_TEXT}
        </p>
      ) : null}
      {/* The link is the way that always works (issue 50): it leads for the owner. */}
      {owner ? <InvitesSection campaignId={campaign.id} /> : null}
      <MembersSection campaignId={campaign.id} members={members} owner={owner} meId={viewer.user.id} />
      {owner ? <AddPerson campaignId={campaign.id} members={members.data} /> : null}
      {me && myRole && mayDo(myRole, 'leave') ? (
        <LeaveCampaign campaignId={campaign.id} me={me} title={campaign.title} onLeft={onLeft} />
      ) : null}
    </div>
  );
}

function MembersSection({
  campaignId,
  members,
  owner,
  meId,
}: {
  campaignId: number;
  members: ReturnType<typeof useMembers>;
  owner: boolean;
  meId: number;
}) {
  const { setRole, remove } = useMemberMutations(campaignId);
  const [removing, setRemoving] = useState<CampaignMember | null>(null);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className={sectionTitle}>
        Members
      </h3>
      {members.isPending ? (
        <div role="status" aria-label="Loading members..." className="flex flex-col gap-2">
          {[0, 1].map((k) => (
            <div key={k} className="h-11 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
          ))}
        </div>
      ) : members.isError ? (
        <div
          role="alert"
          className="flex items-center justify-between gap-3 text-sm text-red-700 dark:text-red-300"
        >
          Failed to load members.
          <Button variant="outline" size="sm" onClick={() => void members.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <ul aria-label="Members" className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800">
          {members.data.map((m) => (
            <li key={m.user.id} className="flex min-w-0 items-center gap-3 py-2">
              <Avatar name={m.user.name} userId={m.user.id} size="sm" />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-zinc-900 dark:text-zinc-100">
                  {m.user.name}
                  {m.user.id === meId ? (
                    <span className="text-zinc-500 dark:text-zinc-400"> (you)</span>
                  ) : null}
                </p>
                {m.user.phone ? (
                  <p className="truncate text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
                    {m.user.phone}
                  </p>
                ) : null}
              </div>
              {owner && m.role !== 'owner' ? (
                <>
                  <select
                    aria-label={`Role of ${m.user.name}`}
                    className={selectClasses}
                    value={m.role}
                    disabled={setRole.isPending}
                    onChange={(e) => setRole.mutate({ member: m, role: e.target.value as MemberRole })}
                  >
                    {MEMBER_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_NAME[r]}
                      </option>
                    ))}
                  </select>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="px-2 text-zinc-500 hover:text-red-600 dark:text-zinc-400 dark:hover:text-red-400"
                    aria-label={`Remove ${m.user.name}`}
                    title="Remove"
                    onClick={() => setRemoving(m)}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </>
              ) : (
                <span className="shrink-0 text-sm text-zinc-600 dark:text-zinc-400">{ROLE_NAME[m.role]}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove ${removing?.user.name ?? ''}?`}
        description="They lose this campaign and everything in it, on every device, at their next sync."
        confirmLabel="Remove"
        tone="danger"
        onConfirm={() => {
          if (removing) remove.mutate(removing);
          setRemoving(null);
        }}
      />
    </section>
  );
}

/** The owner adds one of their mutual contacts (the list the app keeps on the device). */
function AddPerson({ campaignId, members }: { campaignId: number; members: CampaignMember[] | undefined }) {
  const { mutuals } = useMutuals();
  const { add } = useMemberMutations(campaignId);
  const headingId = useId();
  const personId = useId();
  const roleId = useId();
  const [person, setPerson] = useState('');
  const [role, setRole] = useState<MemberRole>('editor');
  const candidates = useMemo(() => {
    const inside = new Set((members ?? []).map((m) => m.user.id));
    return mutuals.filter((m) => !inside.has(m.id));
  }, [mutuals, members]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = candidates.find((c) => String(c.id) === person);
    if (!chosen) return;
    add.mutate({ userId: chosen.id, name: chosen.name, role }, { onSuccess: () => setPerson('') });
  };
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className={sectionTitle}>
        Add a contact
      </h3>
      {mutuals.length === 0 ? null : candidates.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">All your mutual contacts are members.</p>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor={personId} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
              Person
            </label>
            <select
              id={personId}
              className={cn(selectClasses, 'w-full')}
              value={person}
              onChange={(e) => setPerson(e.target.value)}
            >
              <option value="">Choose a contact…</option>
              {candidates.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <RoleField id={roleId} label="Role" role={role} onChange={setRole} />
          <Button type="submit" size="sm" className="h-10" disabled={person === '' || add.isPending}>
            <UserPlus aria-hidden />
            {add.isPending ? 'Adding…' : 'Add'}
          </Button>
        </form>
      )}
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="picker-why">
        {PICKER_WHY}{' '}
        <Link
          to="/contacts"
          className={cn('font-medium text-indigo-700 underline dark:text-indigo-300', focusRing)}
        >
          Import contacts
        </Link>
      </p>
    </section>
  );
}

/** Invite links: make one (role, days, uses), copy it, see the open ones, revoke. */
function InvitesSection({ campaignId }: { campaignId: number }) {
  const invites = useInvites(campaignId, true);
  const { create, revoke } = useInviteMutations(campaignId);
  const headingId = useId();
  const roleId = useId();
  const daysId = useId();
  const usesId = useId();
  const [role, setRole] = useState<MemberRole>('viewer');
  const [days, setDays] = useState(String(INVITE_DAYS.default));
  const [uses, setUses] = useState(String(INVITE_USES.default));
  const [made, setMade] = useState<CreatedInvite | null>(null);
  const [errors, setErrors] = useState<{ days?: string; uses?: string }>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = inviteCreateSchema.safeParse({
      role,
      expires_in_days: days.trim() === '' ? Number.NaN : Number(days),
      max_uses: uses.trim() === '' ? Number.NaN : Number(uses),
    });
    if (!parsed.success) {
      const next: { days?: string; uses?: string } = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'expires_in_days') next.days ??= issue.message;
        if (issue.path[0] === 'max_uses') next.uses ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, { onSuccess: (invite) => setMade(invite) });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className={sectionTitle}>
        Invite by link
      </h3>
      <p className="-mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        The quickest way to add anyone: make a link, copy it and send it. Whoever opens it joins with the role
        you pick, until it expires or is used up.
      </p>
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid grid-cols-3 gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-start"
      >
        <RoleField id={roleId} label="Joins as" role={role} onChange={setRole} />
        <NumberField
          id={daysId}
          label="Expires in (days)"
          value={days}
          onChange={setDays}
          min={INVITE_DAYS.min}
          max={INVITE_DAYS.max}
          error={errors.days}
        />
        <NumberField
          id={usesId}
          label="Uses"
          value={uses}
          onChange={setUses}
          min={INVITE_USES.min}
          max={INVITE_USES.max}
          error={errors.uses}
        />
        <Button
          type="submit"
          size="sm"
          className="col-span-3 h-10 sm:col-span-1 sm:mt-5"
          disabled={create.isPending}
        >
          <Link2 aria-hidden />
          {create.isPending ? 'Making…' : 'Create link'}
        </Button>
      </form>
      {create.isError ? (
        // The server's refusal stays beside the form (at most 50 open links: revoke one first).
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {errorText(create.error, 'Failed to make the link. Please try again.')}
        </p>
      ) : null}
      {made ? <CopyLink url={made.url} /> : null}
      <OpenInvites invites={invites} onRevoke={(i) => revoke.mutate(i)} revoking={revoke.isPending} />
    </section>
  );
}

function NumberField({
  id,
  label,
  value,
  onChange,
  min,
  max,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  error: string | undefined;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        className="h-10"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...(error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {})}
      />
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The new link, shown once: Copy puts it on the clipboard, or selects it with a hint to copy by hand. */
export function CopyLink({ url }: { url: string }) {
  const fieldId = useId();
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      (document.getElementById(fieldId) as HTMLInputElement | null)?.select();
      setState('manual');
    }
  };
  return (
    <div className="flex flex-col gap-1.5 rounded-lg border border-indigo-200 bg-indigo-50/60 p-3 dark:border-indigo-900 dark:bg-indigo-950/40">
      <label htmlFor={fieldId} className="text-xs font-medium text-zinc-800 dark:text-zinc-200">
        Invite link (shown once)
      </label>
      <div className="flex gap-2">
        <Input
          id={fieldId}
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className="h-9 min-w-0 font-mono text-xs md:text-xs"
        />
        <Button size="sm" className="h-9 shrink-0" onClick={() => void copy()}>
          {state === 'copied' ? <Check aria-hidden /> : <Copy aria-hidden />}
          {state === 'copied' ? 'Copied' : 'Copy link'}
        </Button>
      </div>
      <p aria-live="polite" className="text-xs text-zinc-600 dark:text-zinc-400">
        {state === 'manual'
          ? 'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.'
          : state === 'copied'
            ? 'Copied. Anyone with the link can join until it expires or is used up.'
            : 'Anyone with the link can join until it expires or is used up.'}
      </p>
    </div>
  );
}

function expiryText(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return 'Expires soon';
  return `Expires ${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}`;
}

function OpenInvites({
  invites,
  onRevoke,
  revoking,
}: {
  invites: ReturnType<typeof useInvites>;
  onRevoke: (invite: InviteSummary) => void;
  revoking: boolean;
}) {
  if (invites.isPending) return null;
  if (invites.isError)
    return <p className="text-sm text-red-700 dark:text-red-300">Failed to load the open invites.</p>;
  if (invites.data.length === 0)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">No open invites.</p>;
  return (
    <ul aria-label="Open invites" className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800">
      {invites.data.map((invite, index) => {
        const text = `${ROLE_NAME[invite.role]} · ${expiryText(invite.expires_at)} · ${invite.uses} of ${invite.max_uses} uses`;
        return (
          <li key={String(invite.id ?? invite.token ?? index)} className="flex items-center gap-3 py-2">
            <Link2 className="size-4 shrink-0 text-zinc-500 dark:text-zinc-400" aria-hidden />
            <span className="min-w-0 flex-1 truncate text-sm text-zinc-800 dark:text-zinc-200">{text}</span>
            <Button
              variant="outline"
              size="sm"
              disabled={revoking}
              aria-label={`Revoke invite: ${text}`}
              onClick={() => onRevoke(invite)}
            >
              Revoke
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

function LeaveCampaign({
  campaignId,
  me,
  title,
  onLeft,
}: {
  campaignId: number;
  me: CampaignMember;
  title: string;
  onLeft: () => void;
}) {
  const { leave } = useMemberMutations(campaignId);
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  return (
    <div className="border-t border-zinc-200 pt-4 dark:border-zinc-800">
      <Button variant="outline" size="sm" onClick={() => setAsking(true)} disabled={leave.isPending}>
        <LogOut aria-hidden />
        Leave campaign
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={`Leave “${title}”?`}
        description="It goes from your devices; its owner can add you again."
        confirmLabel="Leave"
        tone="danger"
        onConfirm={() =>
          leave.mutate(me, {
            onSuccess: () => {
              onLeft();
              navigate('/campaigns');
            },
          })
        }
      />
    </div>
  );
}

/** A labelled editor/viewer select (adding a member, making an invite). */
function RoleField({
  id,
  label,
  role,
  onChange,
}: {
  id: string;
  label: string;
  role: MemberRole;
  onChange: (role: MemberRole) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      <select
        id={id}
        className={selectClasses}
        value={role}
        onChange={(e) => onChange(e.target.value as MemberRole)}
      >
        {MEMBER_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_NAME[r]}
          </option>
        ))}
      </select>
    </div>
  );
}

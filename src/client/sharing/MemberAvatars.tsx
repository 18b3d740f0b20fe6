import { Avatar } from '../components/ui';
import { cn } from '../components/ui/cn';
import { type CampaignMember, useMembers } from './queries';

/** Avatars shown before '+N' (DESIGN 'People'). */
export const AVATARS_SHOWN = 4;

/**
 * A shared campaign's members as a stack of 24 px avatars overlapping by 6 px, with '+N' past the
 * first four; read as one phrase by a screen reader. Nothing while the list loads or for one person.
 */
export function MemberAvatars({ campaignId, className }: { campaignId: number; className?: string }) {
  const { data } = useMembers(campaignId);
  if (!data || data.length < 2) return null;
  return <AvatarStack members={data} className={className} />;
}

export function AvatarStack({
  members,
  className,
}: {
  members: readonly CampaignMember[];
  className?: string;
}) {
  const shown = members.slice(0, AVATARS_SHOWN);
  const more = members.length - shown.length;
  const names = members.map((m) => m.user.name).join(', ');
  return (
    <span
      role="img"
      aria-label={`Shared with ${members.length} people: ${names}`}
      title={names}
      className={cn('inline-flex shrink-0 items-center', className)}
    >
      {shown.map((m, index) => (
        <Avatar
          key={m.user.id}
          name={m.user.name}
          userId={m.user.id}
          size="stack"
          // 24 px, overlapping by 4 px with 9 px initials: the next avatar and its ring no longer
          // cover the right-hand initial (they did at 6 px and 10 px).
          className={cn('ring-2 ring-white dark:ring-zinc-900', index > 0 && '-ml-1')}
        />
      ))}
      {more > 0 ? (
        <span
          aria-hidden
          className="-ml-1 inline-flex size-6 items-center justify-center rounded-full bg-zinc-200 text-[10px] font-semibold text-zinc-700 ring-2 ring-white dark:bg-zinc-700 dark:text-zinc-100 dark:ring-zinc-900"
        >
          +{more}
        </span>
      ) : null}
    </span>
  );
}

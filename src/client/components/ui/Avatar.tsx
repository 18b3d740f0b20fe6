import { avatarColour } from '../../../shared/avatarColour';
import { cn } from './cn';

/** Up to two initials from a name; '?' when there is none. */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase() || '?';
}

// A stable colour per name so people are recognisable at a glance; all pass AA with white text.
const palette = [
  'bg-indigo-600',
  'bg-emerald-700',
  'bg-sky-700',
  'bg-rose-600',
  'bg-amber-700',
  'bg-violet-600',
];

function colourFor(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
  return palette[Math.abs(hash) % palette.length] ?? 'bg-indigo-600';
}

export interface AvatarProps {
  name: string | null | undefined;
  /** The person's user id: their colour then comes from it (distinct people, distinct hues). */
  userId?: number | null | undefined;
  size?: 'xs' | 'stack' | 'sm' | 'md' | 'lg';
  className?: string;
}

const sizes = {
  xs: 'size-5 text-[10px]',
  // A campaign's member stack (MemberAvatars): 24 px with initials that clear the overlap.
  stack: 'size-6 text-[9px] tracking-tight',
  sm: 'size-7 text-xs',
  md: 'size-9 text-sm',
  lg: 'size-12 text-base',
};

/** A person's initials on their colour: only initials, so a span (no image to load, nothing to focus). */
export function Avatar({ name, userId, size = 'md', className }: AvatarProps) {
  const byId = typeof userId === 'number' && userId > 0;
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full font-semibold text-white select-none',
        !byId && colourFor(name ?? ''),
        sizes[size],
        className,
      )}
      style={byId ? { backgroundColor: avatarColour(userId) } : undefined}
      data-user-id={byId ? userId : undefined}
    >
      <span aria-hidden>{initials(name)}</span>
    </span>
  );
}

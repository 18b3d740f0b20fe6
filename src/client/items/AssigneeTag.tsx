import { UserRound } from 'lucide-react';
import { cn } from '../components/ui/cn';

/** A row's or a card's assignee: the person icon and the name, read as 'Assigned to {name}'. */
export function AssigneeTag({ name, className }: { name: string; className?: string }) {
  return (
    <span className={cn('inline-flex min-w-0 shrink items-center gap-1', className)}>
      <UserRound className="size-3 shrink-0" aria-hidden />
      <span className="sr-only">Assigned to </span>
      <span className="truncate">{name}</span>
    </span>
  );
}

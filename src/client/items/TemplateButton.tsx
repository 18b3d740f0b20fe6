import { LayoutTemplate, ListChecks, MoreHorizontal } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { ItemType } from '../../shared/item';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../components/ui';
import { useViewer } from './queries';

// The dialog (and the template contract's zod) loads on the first press, not with Home.
const NewFromTemplateDialog = lazy(() =>
  import('./TemplateDialogs').then((m) => ({ default: m.NewFromTemplateDialog })),
);
/** 'Save as template…', loaded on the first press. */
export const SaveTemplateDialog = lazy(() =>
  import('./TemplateDialogs').then((m) => ({ default: m.SaveTemplateDialog })),
);

/** 'New from template' beside a quick add: a button that opens the dialog (signed-in people only). */
export function NewFromTemplateButton({
  parent = null,
}: {
  parent?: { id: number; type: ItemType; title: string } | null;
}) {
  const { isGuest } = useViewer();
  const [open, setOpen] = useState(false);
  if (isGuest) return null;
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <LayoutTemplate aria-hidden />
        New from template
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <NewFromTemplateDialog parent={parent} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * A task's template actions in its page's header row: 'Save as template…' (online, once synced) and
 * 'Add checklist…' (a checklist's todos into this task, online or offline).
 */
export function TaskTemplateMenu({ task }: { task: { id: number; type: ItemType; title: string } }) {
  const { isGuest, online } = useViewer();
  const [saveOpen, setSaveOpen] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  if (isGuest) return null;
  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="sm" aria-label={`More actions for ${task.title}`}>
            <MoreHorizontal aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem disabled={!online || task.id < 0} onSelect={() => setSaveOpen(true)}>
            <LayoutTemplate aria-hidden />
            Save as template…
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setAddOpen(true)}>
            <ListChecks aria-hidden />
            Add checklist…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Suspense fallback={null}>
        {saveOpen ? <SaveTemplateDialog item={task} open={saveOpen} onOpenChange={setSaveOpen} /> : null}
        {addOpen ? <NewFromTemplateDialog parent={task} open={addOpen} onOpenChange={setAddOpen} /> : null}
      </Suspense>
    </>
  );
}

import { LayoutTemplate, ListChecks, MoreHorizontal } from 'lucide-react';
import { Suspense, useState } from 'react';
import type { ItemType } from '../../shared/item';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../components/ui';
import { useViewer } from './queries';
import { NewFromTemplateDialog, SaveTemplateDialog } from './TemplateButton';

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

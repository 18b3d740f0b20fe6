import { LayoutTemplate } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { ItemType } from '../../shared/item';
// Button alone, not the components index: the Radix menu (with its positioning and focus libraries,
// ~30 KB gzip) stays out of Home's first load; the task page's menu is in TaskTemplateMenu.tsx.
import { Button } from '../components/ui/Button';
import { useViewer } from './queries';

// The dialog (and the template contract's zod) loads on the first press, not with Home.
export const NewFromTemplateDialog = lazy(() =>
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

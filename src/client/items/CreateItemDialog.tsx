// Placeholder so the shell builds; UI B replaces this file.
import { Dialog, DialogContent } from '../components/ui';

export default function CreateItemDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  parentId?: number | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Create New Item">Coming soon</DialogContent>
    </Dialog>
  );
}

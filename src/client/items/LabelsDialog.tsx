/**
 * The row menu's 'Labels…': the labels editor in a small dialog, its own chunk (RowActionsMenu loads
 * it when chosen), so neither the editor nor the schema's validation weighs on a list.
 */

import type { ItemType } from '../../shared/item';
import { Dialog, DialogContent } from '../components/ui/Dialog';
import { LabelsEditor } from './LabelsEditor';
import { useItemMutations } from './mutations';

export interface LabelsDialogProps {
  item: { id: number; type: ItemType; title: string; labels?: readonly string[] };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

export default function LabelsDialog({ item, open, onOpenChange, onCloseAutoFocus }: LabelsDialogProps) {
  const { setLabels } = useItemMutations();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="sm"
        title="Labels"
        description={`Labels of “${item.title}”: type one and press Enter; up to 10.`}
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <LabelsEditor
          labels={item.labels ?? []}
          title={item.title}
          onChange={(labels) => void setLabels(item, labels)}
        />
      </DialogContent>
    </Dialog>
  );
}

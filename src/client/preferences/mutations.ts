import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDoor, useToast } from '../app/door';
import { SERVER_LIST_KEY } from '../app/queryKeys';
import { holdDataChanges } from '../app/queryProvider';
import type { TrashView } from '../data/items/undoStack';
import type { ImportPreview } from '../data/transfer/dataTransfer';
import { downloadFile } from '../data/transfer/downloadFile';

export { downloadFile };

/** Restore from the trash, export, and import, with their toasts. */
export function useDataSafety() {
  const { send } = useDoor();
  const toast = useToast();
  const queries = useQueryClient();
  return useMemo(() => {
    const refresh = () => queries.invalidateQueries({ queryKey: [SERVER_LIST_KEY] });
    return {
      restore: async (entry: TrashView): Promise<boolean> => {
        try {
          await send('trash.restore', entry);
          toast({ title: 'Restored', description: `“${entry.title}” is back.` });
          return true;
        } catch (error) {
          toast({
            title: 'Could not restore it',
            description: error instanceof Error ? error.message : 'Please try again.',
            variant: 'destructive',
          });
          return false;
        } finally {
          await refresh();
        }
      },
      exportAs: async (format: 'json' | 'csv'): Promise<void> => {
        try {
          const file = await send('transfer.export', format);
          downloadFile(file);
          const missing = file.missing ?? [];
          // The export went without them: say which, and how to get them in.
          if (missing.length > 0)
            toast({
              title: `Exported without ${missing.length === 1 ? '1 file' : `${missing.length} files`}`,
              description: `${missing
                .slice(0, 3)
                .map((f) => `“${f.name}”`)
                .join(
                  ', ',
                )}${missing.length > 3 ? ' and more' : ''}: ${missing[0]?.reason ?? ''} Export again online to include ${missing.length === 1 ? 'it' : 'them'}.`,
              variant: 'destructive',
            });
        } catch (error) {
          console.error(error);
          toast({ title: 'Export failed', description: 'Please try again.', variant: 'destructive' });
        }
      },
      plan: (file: File): Promise<ImportPreview> => send('transfer.plan', file),
      /** Imports the preview's items; answers the result and the undo step that takes them all back. */
      run: async (preview: ImportPreview, onProgress: (done: number, total: number) => void) => {
        // The server lists refresh once at the end, not once per imported item (P19).
        const release = holdDataChanges();
        try {
          const result = await send('transfer.run', { preview, onProgress });
          const undoSeq = result.created > 0 ? await send('undo.latest') : null;
          return { ...result, undoSeq };
        } finally {
          release();
          await refresh();
        }
      },
      /** P4: takes back the whole import (one step), with a toast either way. */
      undoImport: async (seq: number): Promise<boolean> => {
        try {
          await send('undo.takeBack', seq);
          toast({ title: 'Import undone', description: 'The imported items are gone.' });
          return true;
        } catch (error) {
          console.error(error);
          toast({
            title: 'Could not undo the import',
            description: 'Please try again.',
            variant: 'destructive',
          });
          return false;
        } finally {
          await refresh();
        }
      },
    };
  }, [send, toast, queries]);
}

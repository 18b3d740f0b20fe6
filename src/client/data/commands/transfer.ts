/** Export, import and what the device stores (ARCHITECTURE §5, §6), offline and as a guest. */
import type { Lazy } from '../lazy';
import type { DataTransfer, ImportPreview } from '../transfer/dataTransfer';
import { dropShared, readShared, sharedFileOf } from '../transfer/sharedInbox';
import { defineCommands } from './map';

/** Export and import use the data transfer alone (loaded on first use, papaparse with it). */
export interface TransferContext {
  transfer: Lazy<DataTransfer>;
}

export const commands = defineCommands<TransferContext>()({
  /** Outpost JSON or CSV of the device's items. */
  'transfer.export': async (c, format: 'json' | 'csv') => (await c.transfer()).exportFile(format),
  /** Reads a picked file into what an import would create (nothing is written). */
  'transfer.plan': async (c, file: File) => (await c.transfer()).planImport(file),
  'transfer.run': async (
    c,
    a: { preview: ImportPreview; onProgress?: (done: number, total: number) => void },
  ) => (await c.transfer()).runImport(a.preview, a.onProgress),
  /** What the device stores for the viewer, and whether the browser promised to keep it. */
  'transfer.storage': async (c) => (await c.transfer()).storageInfo(),
  /**
   * What a phone shared into Outpost (the service worker kept it, public/share-sw.js): its words and
   * its files as Files; null when the share is gone (used, dropped after a day, another browser).
   */
  'transfer.shared': async (_c, a: { id: string }) => {
    const shared = await readShared(a.id);
    return shared
      ? { title: shared.title, text: shared.text, url: shared.url, files: shared.files.map(sharedFileOf) }
      : null;
  },
  /** Drops a share once its item holds it, or once it was put aside. */
  'transfer.dropShared': (_c, a: { id: string }) => dropShared(a.id),
});

/**
 * What the scale bench's reference pull stores beside each row, loaded only into the reference's own
 * page (bench/scale.ts adds it there, never to the app's pages): the list keys the app's middleware
 * gives every row and its two top flags, so each of the app's indexes gets its entries, and the progress counters computed
 * once from every row. The same reference as `client-browser`'s (bench/browser/entry.ts rawPull).
 */
import { COUNTS_STORE, countRowsFromScratch, topFlagsFromScratch, withKeys } from '../lib/appData';

(window as unknown as { scaleRawKeys: unknown }).scaleRawKeys = {
  COUNTS_STORE,
  withKeys,
  countRowsFromScratch,
  topFlagsFromScratch,
};

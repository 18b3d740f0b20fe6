/**
 * Vitest's set-up file: the one place the tests read OUTPOST_PLAIN_DEXIE. Set to 1, every faster route
 * of the data layer is off and every write and read goes by plain Dexie (src/client/data/store/
 * dexieInternals.ts); `npm test` runs the client data tests once more so (scripts/test.ts, SYNC.md
 * I13). Other test files do not load Dexie for it.
 */
/** Whether this run is the plain-Dexie one: a test of a faster route itself is skipped in it. */
export const plainDexie = process.env.OUTPOST_PLAIN_DEXIE === '1';

if (plainDexie) {
  const { setPlainDexie } = await import('../src/client/data/store/dexieInternals');
  setPlainDexie(true);
}

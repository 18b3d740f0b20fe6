/**
 * The live reads' door (ARCHITECTURE §6 'One door'): the feature folders' queries.ts read through
 * `useLive` and the hooks beside it (reads/live.ts), bound here to the door's client on screen; before
 * the data layer has started, to the page's own (made, not started), so a screen with items reads the
 * device at once. Part of the composition: it alone ties the reads to the page.
 */
import { useDoor } from '../app/door';
import { pageClient } from './page';
import { provideLiveClient } from './reads/live';

provideLiveClient({ useDoorClient: () => useDoor().client, pageClient });

export * from './reads/live';

import { useCallback, useMemo, useState } from 'react';
import type { ItemStatus, ItemType } from '../../shared/item';
import { type LiveQuery, useLive } from '../data/store/live';
import { useAssigneeOptions } from './mutations';
import type { ParentCandidate, ReadTitle } from './quickAddReader';

/** The reader and what shows its reading, loaded together (neither is part of the first screen). */
type ReaderModule = typeof import('./quickAddReader') & typeof import('./QuickAddParts');

// One load for every field on the page; null until it has arrived.
let reader: ReaderModule | null = null;
let loading: Promise<ReaderModule> | null = null;

/**
 * Loads the reader (and chrono-node with it) once. A failed load (offline before the chunk was cached)
 * is forgotten, so the next focus tries again; until then the title is saved as typed.
 */
function loadReader(): Promise<ReaderModule> {
  loading ??= Promise.all([import('./quickAddReader'), import('./QuickAddParts')]).then(
    ([read, parts]) => {
      reader = { ...read, ...parts };
      return reader;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

const NO_PARENTS: ParentCandidate[] = [];

// Read only while the text holds a '#': most titles name no parent and should not list every campaign.
const parentCandidatesQuery: LiveQuery<boolean, ParentCandidate[]> = async (reads, wanted) => {
  if (!wanted) return NO_PARENTS;
  const [campaigns, tasks] = await Promise.all([reads.homeItems('campaign'), reads.homeItems('task')]);
  return [...campaigns, ...tasks].map((i) => ({
    id: i.id,
    type: i.type,
    title: i.title,
    status: i.status as ItemStatus,
  }));
};

const NOTHING_DISMISSED: ReadonlySet<string> = new Set();

export interface QuickAddReadingOptions {
  type: ItemType;
  /** A campaign in the Create dialog has an end date where the others have a due date. */
  dateField: 'due_date' | 'end_date';
  /** Whether the form saves an assignee for this type. */
  assignee: boolean;
}

export interface QuickAddReadingState {
  /** The reading of the title as typed; null until the reader has loaded or while the title is empty. */
  reading: ReadTitle | null;
  /** The chips and the tint, once loaded. */
  parts: Pick<ReaderModule, 'QuickAddChips' | 'TitleTint'> | null;
  /** Starts loading the reader: the field's first focus or keystroke. */
  prime: () => void;
  /** Removes a chip: its words stay in the title. */
  dismiss: (key: string) => void;
  /** Forgets removed chips (the form was emptied). */
  reset: () => void;
}

/**
 * A quick-add title read as it is typed (ARCHITECTURE §5): chips, the title that is left and the
 * fields the words set, from the device alone (its campaigns and tasks, its people, its clock and zone).
 */
export function useQuickAddReading(text: string, options: QuickAddReadingOptions): QuickAddReadingState {
  const [loaded, setLoaded] = useState<ReaderModule | null>(reader);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(NOTHING_DISMISSED);
  const people = useAssigneeOptions();
  const parents = useLive(parentCandidatesQuery, loaded !== null && /(?:^|\s)#\S/.test(text)) ?? NO_PARENTS;

  const prime = useCallback(() => {
    if (reader) setLoaded(reader);
    else
      loadReader().then(setLoaded, (error: unknown) => console.warn('Quick add reader did not load', error));
  }, []);
  const dismiss = useCallback((key: string) => setDismissed((d) => new Set(d).add(key)), []);
  const reset = useCallback(() => setDismissed(NOTHING_DISMISSED), []);

  const { type, dateField, assignee } = options;
  const reading = useMemo(
    () =>
      loaded && text.trim() !== ''
        ? loaded.readTitle(text, dismissed, { type, dateField, assignee, parents, people })
        : null,
    [loaded, text, dismissed, type, dateField, assignee, parents, people],
  );
  return { reading, parts: loaded, prime, dismiss, reset };
}

/** Reads for editing and moving items, through the one door (src/client/app/liveData). */
import { useLocal } from '../app/liveData';
import type { MoveCandidate } from './editing';

const NONE: MoveCandidate[] = [];

/** Every local campaign and task (the only possible parents), live; [] while loading. */
export function useMoveCandidates(): MoveCandidate[] {
  return (
    useLocal(async (reads) => {
      const [campaigns, tasks] = await Promise.all([reads.homeItems('campaign'), reads.homeItems('task')]);
      return [...campaigns, ...tasks].map((i) => ({
        id: i.id,
        type: i.type,
        title: i.title,
        parent_id: i.parent_id,
      }));
    }, []) ?? NONE
  );
}
